// A module killed again and again under load: each time its resources and their dependents come
// back, the rest of the machine answers throughout, and the restarts follow the backoff. And a
// svc-server killed outright leaves no module behind.
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { logLines } from "../helpers/log-lines.js";
import { statusOf } from "../helpers/machine-status.js";
import { buildFixtureModules, type BuiltModules } from "../helpers/module-fixtures.js";
import { dialSdk } from "../helpers/sdk-robot.js";
import { startSvcServer } from "../helpers/svc-server-process.js";

const SENSOR = "rdk:component:sensor";
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("a module that keeps being killed", () => {
  let modules: BuiltModules;
  beforeAll(async () => {
    modules = await buildFixtureModules(["probe-module"]);
  });
  afterAll(() => modules?.remove());

  it("comes back with its resources and their dependents each time, while the machine keeps answering", async () => {
    const server = await startSvcServer({
      modules: [{ type: "local", name: "probe", executable_path: modules.path("probe-module") }],
      components: [
        { name: "steady", api: SENSOR, model: "fake" },
        { name: "p1", api: SENSOR, model: "test:fixture:probe" },
        { name: "watcher", api: SENSOR, model: "fake", depends_on: ["p1"] },
      ],
    });
    const robot = await dialSdk(server.sdkHost);
    try {
      const ready = async (name: string) => ((await statusOf(server.url, `${SENSOR}/${name}`))?.state === "READY" ? true : undefined);
      await eventually(() => ready("watcher"), "the machine");
      const steady = new VIAM.SensorClient(robot, "steady");
      const p1 = new VIAM.SensorClient(robot, "p1");

      // Load on the built-in sensor for the whole test: every call must succeed.
      let load = true;
      let answered = 0;
      const failures: unknown[] = [];
      const loader = (async () => {
        while (load) {
          try {
            await steady.getReadings();
            answered++;
          } catch (error) {
            failures.push(error);
          }
        }
      })();

      const killed: number[] = [];
      for (let round = 0; round < 3; round++) {
        const pid = (await p1.getReadings()).pid as number;
        expect(killed).not.toContain(pid);
        process.kill(pid, "SIGKILL");
        killed.push(pid);
        await eventually(async () => {
          const now = (await p1.getReadings().catch(() => undefined))?.pid as number | undefined;
          return now !== undefined && now !== pid ? true : undefined;
        }, `the probe back after kill ${round + 1}`);
        await eventually(() => ready("watcher"), `the dependent rebuilt after kill ${round + 1}`);
      }
      load = false;
      await loader;
      expect(failures).toEqual([]);
      expect(answered).toBeGreaterThan(0);

      const crashes = logLines(server.stdout()).filter((l) => typeof l.msg === "string" && l.msg.startsWith('module "probe" failed'));
      expect(crashes.map((l) => l.consecutive_failures)).toEqual([1, 2, 3]);
      expect(crashes.map((l) => l.restart_in_ms)).toEqual([100, 200, 400]);
      expect(crashes.every((l) => String(l.msg).includes("SIGKILL"))).toBe(true);
      for (const pid of killed) expect(alive(pid)).toBe(false);

      // svc-server itself killed outright: the module notices and exits.
      const last = (await p1.getReadings()).pid as number;
      await robot.disconnect();
      await server.stop("SIGKILL");
      await eventually(() => (alive(last) ? undefined : true), "the module exiting after svc-server was killed");
    } finally {
      await robot.disconnect().catch(() => {});
      await server.stop();
    }
  });
});
