// Log levels reaching running modules: `debug: true`, a `log` rule naming a module and a module's
// `log_level`, edited in the configuration file of a running svc-server, change what a module
// written with the SDK logs at once, without restarting it; a module that does not follow level
// changes is restarted at the new level, as it learns its level only when it starts.
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { logLines } from "../helpers/log-lines.js";
import { statusOf } from "../helpers/machine-status.js";
import { buildFixtureModules, exampleCounter, type BuiltModules } from "../helpers/module-fixtures.js";
import { dialSdk } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const SENSOR = "rdk:component:sensor";

describe("log levels of running modules", () => {
  let server: SvcServerProcess | undefined;
  let robot: VIAM.RobotClient | undefined;
  let fixtures: BuiltModules;
  beforeAll(async () => {
    fixtures = await buildFixtureModules(["probe-module"]);
  });
  afterAll(() => fixtures?.remove());
  afterEach(async () => {
    await robot?.disconnect();
    robot = undefined;
    await server?.stop();
    server = undefined;
  });

  const lines = () => logLines(server!.stdout());
  const applied = () => lines().filter((l) => l.msg === "configuration applied").length;
  const starts = (module: string) => lines().filter((l) => l.msg === `module "${module}" started`).map((l) => l.pid as number);
  const countedAtDebug = () => lines().filter((l) => l.logger === "counter.c1" && l.level === "debug" && l.msg === "counted");

  /** Writes the configuration and waits until the server has applied it. */
  async function edit(config: Record<string, unknown>): Promise<void> {
    const before = applied();
    server!.writeConfig(config);
    await eventually(() => (applied() > before ? true : undefined), "the edit applied");
  }

  /** Reads c1 until one of the module's debug lines for it reaches the log. */
  async function debugLineArrives(c1: VIAM.SensorClient, why: string): Promise<void> {
    const before = countedAtDebug().length;
    await eventually(async () => {
      await c1.getReadings();
      return countedAtDebug().length > before ? true : undefined;
    }, `the module's debug line after ${why}`);
  }

  it("follows debug, a rule naming the module and its log_level live, without a restart", async () => {
    const base = {
      modules: [{ type: "local", name: "counter", executable_path: exampleCounter }],
      components: [{ name: "c1", api: SENSOR, model: "acme:demo:counter" }],
    };
    server = await startSvcServer(base);
    await eventually(async () => ((await statusOf(server!.url, `${SENSOR}/c1`))?.state === "READY" ? true : undefined), "c1");
    robot = await dialSdk(server.sdkHost);
    const c1 = new VIAM.SensorClient(robot, "c1");
    await c1.getReadings();
    expect(countedAtDebug()).toEqual([]);

    await edit({ ...base, debug: true });
    await debugLineArrives(c1, "debug: true");

    await edit({ ...base, debug: false });
    const quiet = countedAtDebug().length;
    await c1.getReadings();
    await c1.getReadings();
    expect(countedAtDebug()).toHaveLength(quiet);

    await edit({ ...base, log: [{ pattern: "count*", level: "debug" }] });
    await debugLineArrives(c1, "a rule raising the module to debug");

    await edit({ ...base, modules: [{ ...base.modules[0], log_level: "debug" }] });
    await debugLineArrives(c1, "log_level: debug");

    expect(starts("counter")).toHaveLength(1);
  });

  it("restarts a module that does not follow level changes, at the new level", async () => {
    const base = {
      modules: [{ type: "local", name: "plain", executable_path: fixtures.path("probe-module"), env: { PROBE_MODE: "no-parent-channel" } }],
      components: [{ name: "p1", api: SENSOR, model: "test:fixture:probe" }],
    };
    server = await startSvcServer(base);
    await eventually(async () => ((await statusOf(server!.url, `${SENSOR}/p1`))?.state === "READY" ? true : undefined), "p1");
    expect(starts("plain")).toHaveLength(1);
    expect(lines().filter((l) => l.logger === "plain" && l.level === "debug")).toEqual([]);

    await edit({ ...base, debug: true });
    await eventually(() => (starts("plain").length === 2 ? true : undefined), "the module started again");
    await eventually(async () => ((await statusOf(server!.url, `${SENSOR}/p1`))?.state === "READY" ? true : undefined), "p1 again");
    // Started at debug, the module's own debug lines now reach the log.
    await eventually(() => (lines().some((l) => l.logger === "plain" && l.level === "debug" && l.msg === `added ${SENSOR}/p1`) ? true : undefined), "the module at debug");
    expect(() => process.kill(starts("plain")[0]!, 0)).toThrow();
  });
});
