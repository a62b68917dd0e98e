// Moving svc-server between versions, with the real pieces under a temporary root: the version
// store on disk, the supervisor running stand-in servers as real processes, and the update
// state file. Activations asked for at once run one after the other; a failed activation is
// logged and leaves the agent running; a version on probation that fails is rolled back before
// the supervisor would start it again.
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { PassThrough } from "node:stream";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCollectingSink, createLogEngine, type CollectingSink } from "../../../core/index.js";
import { agentPaths, type AgentPaths } from "../../../targets/linux/agent/agent-paths.js";
import { createVersionStore, type VersionStore } from "../../../targets/linux/agent/releases/index.js";
import { createServerSupervisor, type ServerSupervisor, type SupervisorEvent } from "../../../targets/linux/agent/server/server-supervisor.js";
import { createServerUpdates, type ServerUpdates } from "../../../targets/linux/agent/update/server-updates.js";
import { updateStateFile, type UpdateStateFile } from "../../../targets/linux/agent/update/update-state.js";
import { createNodeClock } from "../../../targets/linux/logging/index.js";
import { eventually } from "../../helpers/eventually.js";
import { freePort } from "../../helpers/free-port.js";

const fakeServer = join(import.meta.dirname, "../../fixtures/agent/fake-server.mjs");
const until = (what: string, check: () => void, timeoutMs = 20_000) => eventually(() => (check(), true), what, { timeoutMs });

interface Rig {
  paths: AgentPaths;
  store: VersionStore;
  supervisor: ServerSupervisor;
  updates: ServerUpdates;
  state: UpdateStateFile;
  sink: CollectingSink;
  /** Each supervisor event as "<kind> <version>". */
  events: string[];
}

let work: string;
let rig: Rig | undefined;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "svc-server-updates-"));
});
afterEach(async () => {
  rig?.updates.close();
  await rig?.supervisor.close();
  rig = undefined;
  rmSync(work, { recursive: true, force: true });
});

/** Installs `version` as a stand-in server that serves, hangs or exits at start. */
async function installStandIn(store: VersionStore, version: string, mode: "serve" | "hang" | "exit"): Promise<void> {
  const launcher = join(work, `launcher-${version}`);
  writeFileSync(launcher, `#!/bin/sh\nFAKE_SERVER_MODE=${mode} exec "${process.execPath}" "${fakeServer}" "$@"\n`, { mode: 0o755 });
  await store.install(version, launcher);
}

async function setUp(options: { startTimeoutMs?: number; backoffMs?: number } = {}): Promise<Rig> {
  const root = join(work, "device");
  const paths = agentPaths(root);
  const store = createVersionStore(paths, "svc-server");
  const port = await freePort();
  const configFile = join(work, "machine.json");
  writeFileSync(configFile, JSON.stringify({ network: { bind_address: `127.0.0.1:${port}` } }));
  const sink = createCollectingSink();
  const logger = createLogEngine({ clock: createNodeClock(), sink }).logger("svc-agent");
  const startTimeoutMs = options.startTimeoutMs ?? 10_000;
  const current = paths.currentExecutable("svc-server");
  const supervisor = createServerSupervisor({
    executable: () => (existsSync(current) ? realpathSync(current) : undefined),
    configFile,
    pidFile: join(paths.stateDir, "svc-server.pid"),
    restartStatusUrl: () => `http://127.0.0.1:${port}/restart_status`,
    startTimeoutMs: () => startTimeoutMs,
    backoff: { initialMs: options.backoffMs ?? 10, maxMs: 100, healthyMs: 60_000 },
    stopGraceMs: 5_000,
    logger: logger.child("server"),
    pollMs: 20,
    output: { stdout: new PassThrough().resume(), stderr: new PassThrough().resume() },
  });
  const events: string[] = [];
  const versionOf = (executable: string) => executable.split("/").at(-2);
  supervisor.onEvent((event: SupervisorEvent) => void events.push(`${event.kind} ${versionOf(event.executable)}`));
  const state = updateStateFile(join(paths.stateDir, "update-state.json"));
  const updates = createServerUpdates({
    versions: store,
    supervisor,
    state,
    endpoint: () => ({ restartStatusUrl: `http://127.0.0.1:${port}/restart_status`, maintenanceConfigured: true }),
    probation: () => ({ startTimeoutMs, probationMs: 60_000, maxCrashes: 3 }),
    logger: logger.child("update"),
  });
  rig = { paths, store, supervisor, updates, state, sink, events };
  return rig;
}

const messages = (sink: CollectingSink) => sink.entries.map((entry) => entry.message);

async function runningOn(r: Rig, version: string): Promise<void> {
  await r.store.activate(version);
  r.supervisor.enable();
  await until(`svc-server ${version} serving`, () => expect(r.events).toContain(`started ${version}`));
}

describe("activating svc-server versions", () => {
  it("activates a pending version once when an update check, the maintenance poll and a reload ask at the same moment", async () => {
    const r = await setUp();
    await installStandIn(r.store, "1.0.0", "serve");
    await installStandIn(r.store, "2.0.0", "serve");
    await runningOn(r, "1.0.0");
    r.state.write({ pendingServer: "2.0.0" });

    const [, polled, reloaded] = await Promise.all([r.updates.prepared("2.0.0"), r.updates.tryPending(), r.updates.tryPending()]);
    expect([polled, reloaded]).toContain("none");
    await until("svc-server 2.0.0 serving", () => expect(r.events).toContain("started 2.0.0"));
    expect(messages(r.sink).filter((m) => m.startsWith("activated svc-server 2.0.0"))).toEqual(["activated svc-server 2.0.0 (was 1.0.0): the maintenance window allows a restart"]);
    expect(r.events.filter((e) => e === "starting 2.0.0")).toEqual(["starting 2.0.0"]);
    expect(await r.store.current()).toBe("2.0.0");
    expect(await r.store.previous()).toBe("1.0.0");
    expect(r.updates.pending()).toBeUndefined();
    expect(readdirSync(r.paths.productDir("svc-server")).sort()).toEqual(["current", "previous", "versions"]);
  });

  it("logs an activation that fails with its reason, keeps the running server, and activates at the next check", async () => {
    const r = await setUp();
    await installStandIn(r.store, "1.0.0", "serve");
    await runningOn(r, "1.0.0");
    // Pending, but its folder is gone (removed by hand, or a disk that failed).
    r.state.write({ pendingServer: "3.0.0" });

    expect(await r.updates.tryPending()).toBe("failed");
    const failure = r.sink.entries.find((entry) => entry.message.startsWith("cannot activate svc-server 3.0.0"));
    expect(failure?.level).toBe("error");
    expect(failure?.message).toContain("svc-server 3.0.0 is not installed");
    expect(await r.store.current()).toBe("1.0.0");
    expect(r.state.read()).toEqual({});
    expect(r.supervisor.state()).toBe("running");
    // The next update check installs it again and it goes live.
    await installStandIn(r.store, "3.0.0", "serve");
    await r.updates.prepared("3.0.0");
    await until("svc-server 3.0.0 serving", () => expect(r.events).toContain("started 3.0.0"));
  });
});

describe("the probation of a new version", () => {
  it("rolls back a version that never serves after one kill, without starting it again", async () => {
    const r = await setUp({ startTimeoutMs: 5_000 });
    await installStandIn(r.store, "1.0.0", "serve");
    await installStandIn(r.store, "2.0.0", "hang");
    await r.store.activate("1.0.0");
    r.state.write({ pendingServer: "2.0.0" });
    await r.updates.resumeAtStart();
    r.supervisor.enable();

    await until("svc-server 1.0.0 serving again", () => expect(r.events).toContain("started 1.0.0"), 30_000);
    expect(r.events).toEqual(["starting 2.0.0", "start-timeout 2.0.0", "starting 1.0.0", "started 1.0.0"]);
    expect((await r.store.badMarks())["2.0.0"]?.reason).toContain("did not serve within the start timeout");
    expect(messages(r.sink).filter((m) => m.startsWith("svc-server did not serve within"))).toHaveLength(1);
  });

  it("rolls back a version that keeps exiting at its last allowed exit, without a further start", async () => {
    // Started again at once after each exit: only the verdict can come before the next start.
    const r = await setUp({ backoffMs: 1 });
    await installStandIn(r.store, "1.0.0", "serve");
    await installStandIn(r.store, "2.0.0", "exit");
    await r.store.activate("1.0.0");
    r.state.write({ pendingServer: "2.0.0" });
    await r.updates.resumeAtStart();
    r.supervisor.enable();

    await until("svc-server 1.0.0 serving again", () => expect(r.events).toContain("started 1.0.0"), 30_000);
    expect(r.events.filter((e) => e.endsWith(" 2.0.0"))).toEqual(["starting 2.0.0", "exited 2.0.0", "starting 2.0.0", "exited 2.0.0", "starting 2.0.0", "exited 2.0.0"]);
    expect(r.events.filter((e) => e === "starting 1.0.0")).toEqual(["starting 1.0.0"]);
    expect((await r.store.badMarks())["2.0.0"]?.reason).toContain("stopped 3 times");
  });
});
