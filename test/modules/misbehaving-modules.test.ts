// Modules that go wrong in each way users meet: never ready, exiting at once, crashing while a
// resource is added, hanging while one is removed. Each shows a clear status and none holds up
// the rest of the machine, its start-up or its shutdown.
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { statusOf } from "../helpers/machine-status.js";
import { buildFixtureModules, type BuiltModules } from "../helpers/module-fixtures.js";
import { dialSdk } from "../helpers/sdk-robot.js";
import { startSvcServer } from "../helpers/svc-server-process.js";

const SENSOR = "rdk:component:sensor";
const MODULE = "rdk:module:process";

describe("modules that misbehave", () => {
  let modules: BuiltModules;
  beforeAll(async () => {
    modules = await buildFixtureModules(["probe-module"]);
  });
  afterAll(() => modules?.remove());

  it("give each a clear status and never block the rest", async () => {
    const probe = (name: string, mode: string, extra: Record<string, unknown> = {}) => ({
      type: "local",
      name,
      executable_path: modules.path("probe-module"),
      env: { PROBE_MODE: mode, PROBE_MODEL: `test:fixture:${name}` },
      ...extra,
    });
    const config = (withHangs: boolean) => ({
      modules: [
        probe("never", "never-ready", { startup_timeout: "2s" }),
        probe("quitter", "exit-at-once"),
        probe("crashy", "crash-in-add"),
        probe("stuck", "hang-on-remove"),
      ],
      components: [
        { name: "steady", api: SENSOR, model: "fake" },
        { name: "waits", api: SENSOR, model: "test:fixture:never" },
        { name: "crash1", api: SENSOR, model: "test:fixture:crashy" },
        ...(withHangs ? [{ name: "hangs", api: SENSOR, model: "test:fixture:stuck" }] : []),
      ],
    });
    const server = await startSvcServer(config(true));
    const robot = await dialSdk(server.sdkHost);
    try {
      const steady = new VIAM.SensorClient(robot, "steady");
      expect(await steady.getReadings()).toBeTypeOf("object");
      const statusWith = async (name: string, state: string, part: string) => {
        const s = await statusOf(server.url, name);
        return s?.state === state && s.error.includes(part) ? s.error : undefined;
      };

      const never = await eventually(() => statusWith(`${MODULE}/never`, "UNHEALTHY", "not ready within 2 s"), "the never-ready module's status");
      expect(never).toContain("it answered not ready");
      // A module that never answered ready never said which models it has.
      expect((await statusOf(server.url, `${SENSOR}/waits`))?.error).toContain("no model test:fixture:never is registered");

      const quitter = await eventually(() => statusWith(`${MODULE}/quitter`, "UNHEALTHY", "exited with code 3"), "the quitting module's status");
      expect(quitter).toContain("cannot open /dev/probe0");
      expect(quitter).toMatch(/consecutive_failures: \d+; restarting in \d+ ms/);

      const crashy = await eventually(
        () => statusWith(`${SENSOR}/crash1`, "UNCONFIGURED", "crashed while adding a resource"),
        "the resource whose AddResource crashes its module",
      );
      expect(crashy).toContain('module "crashy" is restarting');
      expect(crashy).toContain("exited with code 9");

      await eventually(() => statusWith(`${SENSOR}/hangs`, "READY", ""), "the resource of the module that hangs on removal");
      expect((await statusOf(server.url, `${SENSOR}/steady`))?.state).toBe("READY");

      // Removing the resource whose RemoveResource hangs: the edit applies, the rest keeps answering.
      server.writeConfig(config(false));
      await eventually(async () => ((await statusOf(server.url, `${SENSOR}/hangs`)) === undefined ? true : undefined), "the hanging resource removed", {
        timeoutMs: 30_000,
      });
      expect(await steady.getReadings()).toBeTypeOf("object");
      expect((await statusOf(server.url, `${MODULE}/stuck`))?.state).toBe("READY");
    } finally {
      await robot.disconnect();
      expect(await server.stop()).toBe(0);
    }
  });
});
