// svc-server under the agent's supervisor, as real processes: the real server, and a stand-in
// that hangs or fails on demand. A server killed outright leaves its modules running; the
// supervisor stops them (and removes their folder) before it starts the next server.
import { mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync, chmodSync, existsSync } from "node:fs";
import * as VIAM from "@viamrobotics/sdk";
import { tmpdir } from "node:os";
import { PassThrough } from "node:stream";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCollectingSink, createLogEngine } from "../../../core/index.js";
import { createServerSupervisor, type ServerSupervisor, type SupervisorEvent } from "../../../targets/linux/agent/server/server-supervisor.js";
import { fetchRestartStatus } from "../../../targets/linux/agent/server/restart-status.js";
import { eventually } from "../../helpers/eventually.js";

/** Waits until the assertions in `check` hold. */
const until = (what: string, check: () => void, timeoutMs = 20_000) =>
  eventually(() => (check(), true), what, { timeoutMs });
import { freePort } from "../../helpers/free-port.js";
import { distLinux } from "../../helpers/run-cli.js";
import { createNodeClock } from "../../../targets/linux/logging/index.js";
import { readProcess } from "../../../targets/linux/system/index.js";
import { buildFixtureModules } from "../../helpers/module-fixtures.js";
import { dialSdk } from "../../helpers/sdk-robot.js";

const fakeServer = join(import.meta.dirname, "../../fixtures/agent/fake-server.mjs");

let dir: string;
let supervisor: ServerSupervisor | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-supervisor-"));
});
afterEach(async () => {
  await supervisor?.close();
  supervisor = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function setUp(executable: () => string | undefined, options: { startTimeoutMs?: number; env?: Record<string, string> } = {}) {
  const port = await freePort();
  const configFile = join(dir, "machine.json");
  writeFileSync(configFile, JSON.stringify({ network: { bind_address: `127.0.0.1:${port}` } }));
  const sink = createCollectingSink();
  const events: SupervisorEvent[] = [];
  supervisor = createServerSupervisor({
    executable,
    configFile,
    pidFile: join(dir, "svc-server.pid"),
    restartStatusUrl: () => `http://127.0.0.1:${port}/restart_status`,
    startTimeoutMs: () => options.startTimeoutMs ?? 20_000,
    backoff: { initialMs: 20, maxMs: 200, healthyMs: 60_000 },
    stopGraceMs: 5_000,
    logger: createLogEngine({ clock: createNodeClock(), sink }).logger("agent"),
    env: { ...process.env, ...options.env },
    pollMs: 20,
    output: { stdout: new PassThrough().resume(), stderr: new PassThrough().resume() },
  });
  supervisor.onEvent((event) => void events.push(event));
  return { port, events, sink, statusUrl: `http://127.0.0.1:${port}/restart_status` };
}

function launcher(name: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

describe("the server supervisor", () => {
  it("starts the real svc-server and counts it started once /restart_status answers", async () => {
    const exe = launcher("svc-server", `exec "${process.execPath}" "${join(distLinux, "svc-server.mjs")}" "$@" -ftdc=false`);
    const { events, statusUrl } = await setUp(() => exe);
    supervisor!.enable();
    await until("a started event", () => expect(events.map((e) => e.kind)).toContain("started"), 30_000);
    expect(await fetchRestartStatus(statusUrl)).toMatchObject({ restartAllowed: true });
    expect(supervisor!.state()).toBe("running");
    expect(existsSync(join(dir, "svc-server.pid"))).toBe(true);
  });

  it("kills a server that does not serve within the start timeout and starts it again", async () => {
    const exe = launcher("svc-server", `exec "${fakeServer}" "$@"`);
    const { events } = await setUp(() => exe, { startTimeoutMs: 300, env: { FAKE_SERVER_MODE: "hang" } });
    supervisor!.enable();
    await until("two start timeouts", () => expect(events.filter((e) => e.kind === "start-timeout").length).toBeGreaterThanOrEqual(2), 20_000);
    const starts = events.filter((e) => e.kind === "starting");
    expect(new Set(starts.map((e) => e.kind === "starting" && e.pid)).size).toBe(starts.length);
  });

  it("starts a server that exits again with backoff, reporting how it exited", async () => {
    const exe = launcher("svc-server", `exec "${fakeServer}" "$@"`);
    const { events } = await setUp(() => exe, { env: { FAKE_SERVER_MODE: "exit" } });
    supervisor!.enable();
    await until("three exits", () => expect(events.filter((e) => e.kind === "exited").length).toBeGreaterThanOrEqual(3), 20_000);
    const exit = events.find((e) => e.kind === "exited");
    expect(exit?.kind === "exited" && exit.how).toBe("exited with code 3: fake-server: cannot start: boom");
  });

  it("stops the server when disabled and keeps it stopped until enabled", async () => {
    const exe = launcher("svc-server", `exec "${fakeServer}" "$@"`);
    const { events, statusUrl } = await setUp(() => exe);
    supervisor!.enable();
    await until("the server running", () => expect(supervisor!.state()).toBe("running"), 20_000);
    await supervisor!.disable();
    expect(supervisor!.state()).toBe("stopped");
    expect(await fetchRestartStatus(statusUrl, 500)).toBeUndefined();
    expect(events.filter((e) => e.kind === "exited")).toEqual([]);
    supervisor!.enable();
    await until("the server running again", () => expect(supervisor!.state()).toBe("running"), 20_000);
  });

  it("restarts with the executable current now, for an upgrade", async () => {
    let which = launcher("svc-server-1", `exec "${fakeServer}" "$@"`);
    const second = launcher("svc-server-2", `exec "${fakeServer}" "$@"`);
    const { events } = await setUp(() => which);
    supervisor!.enable();
    await until("the first server running", () => expect(supervisor!.state()).toBe("running"), 20_000);
    which = second;
    await supervisor!.restart("upgrade");
    await until("both servers started in turn", () => expect(events.filter((e) => e.kind === "started").map((e) => e.kind === "started" && e.executable)).toEqual([join(dir, "svc-server-1"), second]), 20_000);
    expect(events.filter((e) => e.kind === "exited")).toEqual([]);
  });

  it("stops the modules a killed server left, and removes its folder, before it starts the next server", async () => {
    const modules = await buildFixtureModules(["probe-module"]);
    const temporary = join(dir, "tmp");
    mkdirSync(temporary);
    const real = launcher("svc-server", `exec "${process.execPath}" "${join(distLinux, "svc-server.mjs")}" "$@" -ftdc=false`);
    // The next server is the stand-in, which sweeps nothing itself: what is swept, the supervisor swept.
    const standIn = launcher("svc-server-next", `exec "${fakeServer}" "$@"`);
    let exe = real;
    let modulePid: number | undefined;
    try {
      const { port, events, sink } = await setUp(() => exe, { env: { TMPDIR: temporary } });
      writeFileSync(
        join(dir, "machine.json"),
        JSON.stringify({
          network: { bind_address: `127.0.0.1:${port}` },
          // Written without the SDK's parent watch: nothing tells it that its server died.
          modules: [{ type: "local", name: "probe", executable_path: modules.path("probe-module"), env: { PROBE_MODE: "no-parent-channel" } }],
          components: [{ name: "p1", api: "rdk:component:sensor", model: "test:fixture:probe" }],
        }),
      );
      supervisor!.enable();
      await until("the real server started", () => expect(events.map((e) => e.kind)).toContain("started"), 30_000);
      const robot = await dialSdk(`http://localhost:${port}`);
      try {
        const p1 = new VIAM.SensorClient(robot, "p1");
        modulePid = (await eventually(() => p1.getReadings().catch(() => undefined), "the module's readings")).pid as number;
      } finally {
        await robot.disconnect();
      }
      const folders = readdirSync(temporary).filter((name) => name.startsWith("svc-m-") && !name.endsWith(".sock"));
      expect(folders).toHaveLength(1);

      exe = standIn;
      process.kill(supervisor!.runningPid()!, "SIGKILL");
      await until("the stand-in started", () => expect(events.filter((e) => e.kind === "started").length).toBe(2), 30_000);
      const gone = (pid: number) => readProcess(pid) === undefined || readProcess(pid)!.zombie;
      await until("the module stopped", () => expect(gone(modulePid!)).toBe(true));
      expect(readdirSync(temporary)).toEqual([]);
      const swept = sink.entries.filter((e) => e.message.startsWith("swept what svc-server processes that are gone left behind"));
      expect(swept).toHaveLength(1);
      expect(swept[0]!.message).toContain(join(temporary, folders[0]!));
    } finally {
      if (modulePid !== undefined && readProcess(modulePid)) process.kill(modulePid, "SIGKILL");
      modules.remove();
    }
  });
});
