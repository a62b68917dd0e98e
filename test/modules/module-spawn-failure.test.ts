// A module whose executable cannot be started (not there yet, no exec bit) has not started and
// has not crashed: it is UNHEALTHY with the reason in words, said once in the log, never logged
// as started, tried again until the file is right, and its first real crash afterwards waits the
// first step of the backoff.
import * as VIAM from "@viamrobotics/sdk";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { logLines } from "../helpers/log-lines.js";
import { statusOf } from "../helpers/machine-status.js";
import { buildFixtureModules, type BuiltModules } from "../helpers/module-fixtures.js";
import { dialSdk } from "../helpers/sdk-robot.js";
import { startSvcServer } from "../helpers/svc-server-process.js";

const SENSOR = "rdk:component:sensor";
const MODULE = "rdk:module:process";

describe("a module that cannot be started", () => {
  let modules: BuiltModules;
  let dir: string;
  beforeAll(async () => {
    modules = await buildFixtureModules(["probe-module"]);
    dir = mkdtempSync(join(tmpdir(), "svc-spawn-failure-"));
  });
  afterAll(() => {
    modules?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it("is UNHEALTHY with the reason, retried without counting as a crash, and starts once the file is right", async () => {
    // A program with a #! line: it needs the exec bit (a .mjs file would not).
    const executable = join(dir, "probe");
    const server = await startSvcServer({
      modules: [{ type: "local", name: "late", executable_path: executable }],
      components: [{ name: "l1", api: SENSOR, model: "test:fixture:probe" }],
    });
    const robot = await dialSdk(server.sdkHost);
    try {
      const statusWith = async (part: string) => {
        const s = await statusOf(server.url, `${MODULE}/late`);
        return s?.state === "UNHEALTHY" && s.error.includes(part) ? s.error : undefined;
      };
      const missing = await eventually(() => statusWith("no such file"), "the missing executable's status");
      expect(missing).toBe(`executable_path ${executable}: no such file`);

      writeFileSync(executable, readFileSync(modules.path("probe-module")), { mode: 0o644 });
      const notExecutable = await eventually(() => statusWith("is not executable"), "the status of the executable without its exec bit");
      expect(notExecutable).toBe(`executable_path ${executable}: is not executable: chmod +x it, or write it as a .mjs file`);

      chmodSync(executable, 0o755);
      const l1 = new VIAM.SensorClient(robot, "l1");
      const pid = (await eventually(() => l1.getReadings().catch(() => undefined), "the module's readings once it can start")).pid as number;

      // Its first crash: the first step of the backoff, as for any module.
      process.kill(pid, "SIGKILL");
      await eventually(async () => {
        const now = (await l1.getReadings().catch(() => undefined))?.pid;
        return now !== undefined && now !== pid ? true : undefined;
      }, "the module back after its crash");

      const lines = logLines(server.stdout()).filter((l) => l.logger === "late");
      const cannot = lines.filter((l) => String(l.msg).startsWith('module "late" cannot start'));
      expect(cannot.map((l) => l.msg)).toEqual([`module "late" cannot start: ${missing}`, `module "late" cannot start: ${notExecutable}`]);
      const started = lines.filter((l) => l.msg === 'module "late" started');
      expect(started).toHaveLength(2);
      expect(started.every((l) => typeof l.pid === "number" && l.pid > 0)).toBe(true);
      const crashes = lines.filter((l) => String(l.msg).startsWith('module "late" failed'));
      expect(crashes.map((l) => [l.consecutive_failures, l.restart_in_ms])).toEqual([[1, 100]]);
    } finally {
      await robot.disconnect();
      expect(await server.stop()).toBe(0);
    }
  });
});
