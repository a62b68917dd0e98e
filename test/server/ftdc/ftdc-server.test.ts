// The real svc-server recording FTDC into -ftdc-dir while the official SDK calls it and a module
// runs: its files, read back, hold the API calls growing by method, the resources by state, the
// module process's CPU and memory, and the server's own process; `-ftdc=false` records nothing.
import * as VIAM from "@viamrobotics/sdk";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { readFtdc, type FtdcReading } from "../../../core/index.js";
import { eventually } from "../../helpers/eventually.js";
import { exampleCounter } from "../../helpers/module-fixtures.js";
import { dialSdk } from "../../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../../helpers/svc-server-process.js";

const GET_READINGS = "/viam.component.sensor.v1.SensorService/GetReadings";
const work = mkdtempSync(join(tmpdir(), "svc-ftdc-server-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let server: SvcServerProcess | undefined;
let robot: VIAM.RobotClient | undefined;
afterEach(async () => {
  await robot?.disconnect();
  robot = undefined;
  await server?.stop();
  server = undefined;
});

/** Every reading in the folder's files, oldest file first. */
function readingsIn(dir: string): FtdcReading[] {
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir).filter((f) => f.endsWith(".ftdc")).sort();
  return files.flatMap((f) => [...readFtdc(readFileSync(join(dir, f)), { source: f })]);
}

const valueOf = (reading: FtdcReading, name: string) => {
  const i = reading.names.indexOf(name);
  return i < 0 ? undefined : reading.values[i];
};

describe("svc-server recording FTDC", () => {
  it("records API calls by method, resources by state, its process and a module's", async () => {
    const dir = join(work, "diagnostics");
    server = await startSvcServer(
      {
        modules: [{ type: "local", name: "counter", executable_path: exampleCounter }],
        components: [
          { name: "temp", api: "rdk:component:sensor", model: "fake" },
          { name: "c1", api: "rdk:component:sensor", model: "acme:demo:counter", attributes: { step: 1 } },
        ],
      },
      { args: ["-ftdc-dir", dir] },
    );
    robot = await dialSdk(server.sdkHost);
    const temp = new VIAM.SensorClient(robot, "temp");
    await eventually(async () => ((await new VIAM.SensorClient(robot!, "c1").getReadings().catch(() => undefined)) ? true : undefined), "the modular sensor");
    for (let i = 0; i < 5; i++) await temp.getReadings();
    await expect(new VIAM.SensorClient(robot, "missing").getReadings()).rejects.toThrow();
    const afterFirst = await eventually(() => {
      const last = readingsIn(dir).at(-1);
      return last && (valueOf(last, `api.${GET_READINGS}.calls`) ?? 0) >= 6 && valueOf(last, "modules.counter.rss_bytes") ? last : undefined;
    }, "a reading with the calls and the module");
    for (let i = 0; i < 10; i++) await temp.getReadings();
    const later = await eventually(() => {
      const last = readingsIn(dir).at(-1);
      return last && valueOf(last, `api.${GET_READINGS}.calls`)! >= valueOf(afterFirst, `api.${GET_READINGS}.calls`)! + 10 ? last : undefined;
    }, "a reading with the later calls");

    expect(server.stdout()).toContain("recording diagnostics (FTDC)");
    expect(valueOf(later, `api.${GET_READINGS}.errors`)).toBeGreaterThanOrEqual(1);
    expect(valueOf(later, "api.calls")).toBeGreaterThanOrEqual(valueOf(later, `api.${GET_READINGS}.calls`)!);
    expect(valueOf(later, "api.errors")).toBeGreaterThanOrEqual(1);
    expect(valueOf(later, `api.${GET_READINGS}.latency_p99_ms`)).toBeGreaterThan(0);
    // Two sensors READY (the module's own status is the module, not a resource of the graph).
    expect(valueOf(later, "graph.resources.READY")).toBeGreaterThanOrEqual(2);
    expect(valueOf(later, "graph.resources.UNHEALTHY")).toBe(0);
    expect(valueOf(later, "graph.reconfigurations")).toBeGreaterThanOrEqual(1);
    expect(valueOf(later, "modules.counter.rss_bytes")).toBeGreaterThan(1_000_000);
    expect(later.names).toContain("modules.counter.cpu_user_pct");
    expect(later.names).toContain("modules.counter.cpu_system_pct");
    expect(valueOf(later, "process.rss_bytes")).toBeGreaterThan(10_000_000);
    expect(valueOf(later, "process.heap_used_bytes")).toBeGreaterThan(0);
    expect(valueOf(later, "process.heap_total_bytes")).toBeGreaterThanOrEqual(valueOf(later, "process.heap_used_bytes")!);
    expect(later.names).toEqual(expect.arrayContaining(["process.cpu_user_pct", "process.cpu_system_pct", "process.event_loop_delay_mean_ms", "process.event_loop_delay_max_ms"]));
    // Readings come in time order, a second or so apart.
    const all = readingsIn(dir);
    for (let i = 1; i < all.length; i++) expect(all[i]!.timeNs).toBeGreaterThan(all[i - 1]!.timeNs);
  });

  it("records nothing with -ftdc=false", async () => {
    const dir = join(work, "off");
    server = await startSvcServer({ components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }] }, { args: ["-ftdc=false", "-ftdc-dir", dir, "-debug"] });
    robot = await dialSdk(server.sdkHost);
    await new VIAM.SensorClient(robot, "temp").getReadings();
    await eventually(() => (server!.stdout().includes("configuration loaded") ? true : undefined), "the configuration loaded");
    // Longer than a recorder's first period: one would have written by now.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(server.stdout()).not.toContain("recording diagnostics");
    await robot.disconnect();
    robot = undefined;
    expect(await server.stop()).toBe(0);
    server = undefined;
    expect(existsSync(dir)).toBe(false);
  });
});
