// A svc-server killed outright (kill -9) leaves modules behind: one written without the SDK
// does not notice, and a child an SDK module started outlives it. The next svc-server in the
// same temporary folder stops them and removes the dead server's folder, saying so in one line,
// and leaves alone what a live neighbour runs.
import * as VIAM from "@viamrobotics/sdk";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readProcess } from "../../targets/linux/system/index.js";
import { eventually } from "../helpers/eventually.js";
import { logLines } from "../helpers/log-lines.js";
import { buildFixtureModules, type BuiltModules } from "../helpers/module-fixtures.js";
import { dialSdk } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const SENSOR = "rdk:component:sensor";
// A zombie has exited: only its parent (init, for an orphan) has not collected it yet.
const alive = (pid: number) => {
  const info = readProcess(pid);
  return info !== undefined && !info.zombie;
};

describe("modules of a svc-server that was killed", () => {
  let modules: BuiltModules;
  let shared: string;
  const started: SvcServerProcess[] = [];
  const pids: number[] = [];
  beforeAll(async () => {
    modules = await buildFixtureModules(["probe-module"]);
    shared = mkdtempSync(join(tmpdir(), "svc-orphans-"));
  });
  afterAll(async () => {
    for (const server of started) await server.stop();
    for (const pid of pids) if (alive(pid)) process.kill(pid, "SIGKILL");
    modules?.remove();
    rmSync(shared, { recursive: true, force: true });
  });

  const probe = (name: string, env: Record<string, string> = {}) => ({
    type: "local",
    name,
    executable_path: modules.path("probe-module"),
    env: { PROBE_MODEL: `test:fixture:${name}`, ...env },
  });
  const sensor = (name: string, model: string) => ({ name, api: SENSOR, model: `test:fixture:${model}` });
  const start = async (config: Record<string, unknown>) => {
    const server = await startSvcServer(config, { env: { TMPDIR: shared } });
    started.push(server);
    return server;
  };
  const folders = () => readdirSync(shared).filter((name) => /^svc-m-[^.]+$/.test(name));
  async function readings(server: SvcServerProcess, name: string): Promise<Record<string, unknown>> {
    const robot = await dialSdk(server.sdkHost);
    try {
      const client = new VIAM.SensorClient(robot, name);
      return await eventually(() => client.getReadings().catch(() => undefined), `readings of ${name}`);
    } finally {
      await robot.disconnect();
    }
  }

  it("are stopped by the next svc-server, which removes the dead one's folder and leaves a live one's alone", async () => {
    const neighbour = await start({ modules: [probe("near")], components: [sensor("near1", "near")] });
    const nearPid = (await readings(neighbour, "near1")).pid as number;
    pids.push(nearPid);
    const before = folders();

    const doomed = await start({
      modules: [probe("plain", { PROBE_MODE: "no-parent-channel" }), probe("spawner", { PROBE_CHILD: "1" })],
      components: [sensor("plain1", "plain"), sensor("spawner1", "spawner")],
    });
    const plainPid = (await readings(doomed, "plain1")).pid as number;
    const childPid = (await readings(doomed, "spawner1")).child_pid as number;
    pids.push(plainPid, childPid);
    const doomedFolder = folders().filter((f) => !before.includes(f));
    expect(doomedFolder).toHaveLength(1);

    await doomed.stop("SIGKILL");
    // Nothing tells them: the module without the SDK and the SDK module's child keep running.
    expect(alive(plainPid)).toBe(true);
    expect(alive(childPid)).toBe(true);

    const next = await start({});
    await eventually(() => (alive(plainPid) || alive(childPid) ? undefined : true), "the modules the killed server left, stopped");
    expect(folders()).not.toContain(doomedFolder[0]);
    expect(readdirSync(shared)).not.toContain(`${doomedFolder[0]}.sock`);
    const swept = logLines(next.stdout()).filter((l) => String(l.msg).startsWith("swept what svc-server processes that are gone left behind"));
    expect(swept).toHaveLength(1);
    expect(swept[0]!.msg).toContain(join(shared, doomedFolder[0]!));
    expect(swept[0]!.process_groups).toEqual(expect.arrayContaining([plainPid]));

    // The live neighbour's module and folder were not touched.
    expect(alive(nearPid)).toBe(true);
    expect(folders()).toEqual(expect.arrayContaining(before));
    expect((await readings(neighbour, "near1")).pid).toBe(nearPid);
  });
});
