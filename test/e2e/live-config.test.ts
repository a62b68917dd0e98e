// Live configuration against the real svc-server process: an edit of the followed file (a sensor
// added, an attribute changed) is seen by a connected client; a broken edit (not JSON, or JSON
// with a bad entry) is refused whole, the running resources keep answering as before and the log
// says why; a good edit after that, saved by write-then-rename as editors do, still applies.
import * as VIAM from "@viamrobotics/sdk";
import { renameSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { logLines, type LogLine } from "../helpers/log-lines.js";
import { dialSdk, fullName } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const sensor = (name: string, readings: Record<string, unknown>) => ({
  name,
  api: "rdk:component:sensor",
  model: "fake",
  attributes: { readings },
});
const wheel = { name: "wheel", api: "rdk:component:motor", model: "fake", attributes: {} };
const REFUSED = "configuration refused; the machine keeps running as it was";

let server: SvcServerProcess;
let robot: VIAM.RobotClient;
beforeAll(async () => {
  server = await startSvcServer({ components: [sensor("temp", { celsius: 20 }), wheel] });
  robot = await dialSdk(server.sdkHost);
});
afterAll(async () => {
  await robot?.disconnect();
  await server?.stop();
});

const names = async () => (await robot.resourceNames()).map(fullName).sort();
const readingsOf = (name: string) => new VIAM.SensorClient(robot, name).getReadings();
const revision = async () => (await robot.getMachineStatus()).config?.revision;

/** Waits for a log line written after the first `after` lines. */
const logged = (after: number, match: (line: LogLine) => boolean, what: string) =>
  eventually(() => logLines(server.stdout()).slice(after).find(match), what);

describe("a configuration edit", () => {
  it("is seen by the client: a sensor added and another's readings changed", async () => {
    expect(await names()).toEqual(["rdk:component:motor/wheel", "rdk:component:sensor/temp"]);
    expect(await readingsOf("temp")).toEqual({ celsius: 20 });
    const before = await revision();
    // The wheel keeps turning through every edit below: its entry never changes, so it is never rebuilt.
    await new VIAM.MotorClient(robot, "wheel").setPower(0.2);

    server.writeConfig({ components: [sensor("temp", { celsius: 25 }), sensor("humidity", { rh: 40 }), wheel] });

    await eventually(async () => ((await names()).includes("rdk:component:sensor/humidity") ? true : undefined), "the new sensor listed");
    expect(await readingsOf("humidity")).toEqual({ rh: 40 });
    await eventually(async () => ((await readingsOf("temp")).celsius === 25 ? true : undefined), "the new readings of temp");
    expect(await revision()).not.toBe(before);
    const status = await robot.getMachineStatus();
    expect(status.state).toBe(VIAM.robotApi.GetMachineStatusResponse_State.RUNNING);
    expect(status.resources.every((r) => r.state === VIAM.robotApi.ResourceStatus_State.READY)).toBe(true);
  });
});

describe("a broken edit", () => {
  it("that is not JSON leaves the machine as it was, and the log says why", async () => {
    const before = await revision();
    const seen = logLines(server.stdout()).length;
    server.writeConfig('{ "components": [ { "name": "temp", ');

    const refusal = await logged(seen, (l) => l.msg === REFUSED, "the refusal in the log");
    expect(refusal).toMatchObject({ level: "error", logger: "svc.config", file: server.configFile });
    expect(String(refusal.reason)).toMatch(/JSON/i);

    expect(await names()).toEqual(["rdk:component:motor/wheel", "rdk:component:sensor/humidity", "rdk:component:sensor/temp"]);
    expect(await readingsOf("temp")).toEqual({ celsius: 25 });
    expect(await readingsOf("humidity")).toEqual({ rh: 40 });
    expect(await revision()).toBe(before);
  });

  it("that is JSON with a bad entry is refused whole: nothing of it applies, and the log names the entry", async () => {
    const before = await revision();
    const seen = logLines(server.stdout()).length;
    // temp's new readings would be fine; the bad name makes the whole edit wrong.
    server.writeConfig({ components: [sensor("temp", { celsius: 99 }), sensor("humidity", { rh: 40 }), wheel, sensor("bad name!", {})] });

    const refusal = await logged(seen, (l) => l.msg === REFUSED, "the refusal in the log");
    expect(String(refusal.reason)).toContain("components[3].name");
    const issue = logLines(server.stdout())
      .slice(seen)
      .find((l) => l.path === "components[3].name");
    expect(issue).toMatchObject({ level: "error", logger: "svc.config" });

    expect(await readingsOf("temp")).toEqual({ celsius: 25 });
    expect(await names()).toEqual(["rdk:component:motor/wheel", "rdk:component:sensor/humidity", "rdk:component:sensor/temp"]);
    expect(await revision()).toBe(before);
  });

  it("is followed by a good edit, saved by write-then-rename, that applies", async () => {
    const next = { network: { bind_address: "localhost:0" }, components: [sensor("temp", { celsius: 30 }), wheel] };
    const temporary = `${server.configFile}.tmp`;
    writeFileSync(temporary, JSON.stringify(next));
    renameSync(temporary, server.configFile);

    await eventually(async () => ((await readingsOf("temp")).celsius === 30 ? true : undefined), "the readings of the good edit");
    await eventually(async () => ((await names()).length === 2 ? true : undefined), "humidity removed");
    expect(await names()).toEqual(["rdk:component:motor/wheel", "rdk:component:sensor/temp"]);
    const gone = await readingsOf("humidity").catch((e: unknown) => e);
    expect(gone).toMatchObject({ code: VIAM.Code.NotFound });
    // The wheel was not touched by any of it.
    const wheelMotor = new VIAM.MotorClient(robot, "wheel");
    expect(await wheelMotor.isMoving()).toBe(true);
    await wheelMotor.stop();
  });
});
