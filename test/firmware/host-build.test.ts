// svc-mcu built by the Moddable SDK for its host platform (lin) and run in Moddable's simulator:
// the preloaded bundle, the manifest's stack and heap, device/main.js and Moddable's own HTTP
// server, as a device runs them. The official Viam SDK dials it over gRPC-web; a configuration
// PUT is applied in place by the same process and is what the firmware boots from after a
// restart. The platform has no device.io, and the firmware says so instead of failing.
import { rmSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialSdk, fullName } from "../helpers/sdk-robot.js";
import { buildHostFirmware, freePort, startMcsim, startXvfb, type Display, type Mcsim } from "./mcsim-host.js";

const sensor = (name: string, readings: Record<string, unknown>) => ({ name, api: "rdk:component:sensor", model: "fake", attributes: { readings } });
const next = { components: [sensor("temp", { celsius: 30 }), sensor("humid", { percent: 40 })] };

let dir: string;
let so: string;
let port: number;
let display: Display;
let device: Mcsim;

async function boot(): Promise<Mcsim> {
  const started = startMcsim(so, display, join(dir, "home"));
  await started.waitFor(/svc\.config: configuration (loaded|applied)/);
  return started;
}

async function withRobot<T>(use: (robot: VIAM.RobotClient) => Promise<T>): Promise<T> {
  const robot = await dialSdk(`http://localhost:${port}`);
  try {
    return await use(robot);
  } finally {
    await robot.disconnect();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-firmware-lin-"));
  port = await freePort();
  so = await buildHostFirmware(["--out", join(dir, "build"), `svcPort=${port}`]);
  display = await startXvfb();
  device = await boot();
}, 600_000);

afterAll(async () => {
  await device?.close();
  await display?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the host build of svc-mcu (Moddable lin, mcsim)", () => {
  it("boots its built-in configuration on a platform without device.io or multicast, saying which is missing", async () => {
    expect(device.lines.join("\n")).toMatch(/no device\.io: no ECMA-419 Digital, PWM, Analog, I2C, SMBus or Serial/);
    expect(device.lines.join("\n")).not.toMatch(/XS abort|stack overflow|not extensible|read-only/);
    // Moddable 8.2.3's lin sockets refuse every multicast address: the firmware says it, and serves.
    expect(device.lines.join("\n")).toMatch(/warning svc\.mdns: cannot advertise svc-mcu\.local: Error: this platform.s sockets \(Moddable.s lin\) take no multicast address/);
  });

  it("answers the official SDK: resource names, sensor readings, a missing resource, a pin it has no IO for", async () => {
    await withRobot(async (robot) => {
      expect((await robot.resourceNames()).map(fullName).sort()).toEqual(["rdk:component:board/board", "rdk:component:sensor/temp"]);
      expect(await new VIAM.SensorClient(robot, "temp").getReadings()).toEqual({ celsius: 21.5 });
      await expect(new VIAM.SensorClient(robot, "nowhere").getReadings()).rejects.toThrow(/no rdk:component:sensor named "nowhere"/);
      // The board's pins are the platform's, and this one has none: the answer says which IO.
      await expect(new VIAM.BoardClient(robot, "board").setGPIO("2", true)).rejects.toThrow(/no device\.io: no ECMA-419 Digital.*has no Digital IO/);
    });
  });

  it("applies a configuration PUT in place, and boots from it after a restart", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/svc/config`, { method: "PUT", body: JSON.stringify(next) });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      outcome: "applied",
      added: ["rdk:component:sensor/humid"],
      modified: ["rdk:component:sensor/temp"],
      removed: ["rdk:component:board/board"],
    });
    const pid = device.pid;
    await withRobot(async (robot) => {
      expect((await robot.resourceNames()).map(fullName).sort()).toEqual(["rdk:component:sensor/humid", "rdk:component:sensor/temp"]);
      expect(await new VIAM.SensorClient(robot, "temp").getReadings()).toEqual({ celsius: 30 });
    });
    expect(device.pid).toBe(pid);

    await device.close();
    device = await boot();
    await withRobot(async (robot) => {
      expect(await new VIAM.SensorClient(robot, "humid").getReadings()).toEqual({ percent: 40 });
      expect(await new VIAM.SensorClient(robot, "temp").getReadings()).toEqual({ celsius: 30 });
    });
  });

  it("serves GetReadings to the SDK call after call (calls a second printed; Moddable's lin sockets poll every 20 ms)", async () => {
    await withRobot(async (robot) => {
      const temp = new VIAM.SensorClient(robot, "temp");
      const calls = 200;
      const started = performance.now();
      for (let i = 0; i < calls; i++) expect(await temp.getReadings()).toEqual({ celsius: 30 });
      console.log(`GetReadings from the SDK to the host build: ${Math.round((calls * 1000) / (performance.now() - started))} calls/s`);
    });
  });

  it("refuses a broken configuration with its issues and keeps serving", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/svc/config`, { method: "PUT", body: '{"components": [{"name": "x"}]}' });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ outcome: "refused" });
    await withRobot(async (robot) => expect(await new VIAM.SensorClient(robot, "temp").getReadings()).toEqual({ celsius: 30 }));
  });
});
