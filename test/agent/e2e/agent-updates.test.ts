// svc-agent end to end: real artifacts built by tools/package, a real release server on
// loopback, the agent installed under a device root folder and run as a real process, and the
// real svc-server it installs, updates and rolls back. Time runs 100 times faster
// (SVC_AGENT_TIME_SCALE=0.01): the 10-minute start timeout is 6 s, an update check every 3 s.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchRestartStatus } from "../../../targets/linux/agent/server/restart-status.js";
import {
  artifactEntry,
  brokenServerRelease,
  currentVersion,
  installAgent,
  packageRelease,
  startAgentProcess,
  type AgentProcess,
} from "../../helpers/agent-fixture.js";
import { eventually } from "../../helpers/eventually.js";
import { buildFixtureModules, type BuiltModules } from "../../helpers/module-fixtures.js";
import { freePort } from "../../helpers/free-port.js";
import { startReleaseServer, type ReleaseServer } from "../../helpers/release-server.js";

// A failed wait shows what the agent said last.
const until = <T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 60_000) =>
  eventually(probe, what, { timeoutMs }).catch((error: Error) => {
    throw new Error(`${error.message}\n--- agent output (end) ---\n${agent?.output().slice(-6000)}`);
  });

let work: string;
let root: string;
let releases: ReleaseServer;
let served: string;
let port: number;
let configFile: string;
let windowFile: string;
let modules: BuiltModules;
let agent: AgentProcess | undefined;
let agentExecutable: string;
const artifacts = new Map<string, { file: string; entry: ReturnType<typeof artifactEntry> }>();

// Artifacts live in the served folder; the index names them relative to itself.
function publish(product: "svc-server" | "agent", version: string, file: string, tamper?: (entry: ReturnType<typeof artifactEntry>) => void) {
  const entry = artifactEntry(file, basename(file));
  tamper?.(entry);
  artifacts.set(`${product}@${version}`, { file, entry });
}

function setStable(server: string, agentVersion = "1.0.0") {
  const versionsOf = (product: string) =>
    Object.fromEntries([...artifacts].filter(([key]) => key.startsWith(`${product}@`)).map(([key, { entry }]) => [key.split("@")[1], { "linux/amd64": entry }]));
  const index = {
    "svc-server": { channels: { stable: server }, versions: versionsOf("svc-server") },
    agent: { channels: { stable: agentVersion }, versions: versionsOf("agent") },
  };
  writeFileSync(join(served, "index.json.tmp"), JSON.stringify(index));
  renameSync(join(served, "index.json.tmp"), join(served, "index.json"));
}

// The maintenance window's sensor reads a file, so the window opens and closes without a
// configuration change (which the window itself would defer).
function setWindow(open: boolean) {
  writeFileSync(windowFile, JSON.stringify({ ok: open }));
}

function writeConfig(extra: Record<string, unknown> = {}) {
  writeFileSync(
    configFile,
    JSON.stringify({
      network: { bind_address: `127.0.0.1:${port}` },
      modules: [{ type: "local", name: "probe", executable_path: modules.path("probe-module"), env: { PROBE_READINGS_FILE: windowFile } }],
      components: [{ name: "window", api: "rdk:component:sensor", model: "test:fixture:probe" }],
      maintenance: { sensor_name: "rdk:component:sensor/window", maintenance_allowed_key: "ok" },
      ...extra,
    }),
  );
}

function startAgent() {
  agent = startAgentProcess(agentExecutable, ["-c", configFile, "--defaults", join(work, "none.json")], {
    SVC_AGENT_ROOT: root,
    SVC_AGENT_RELEASE_INDEX: `${releases.url}index.json`,
    SVC_AGENT_TIME_SCALE: "0.01",
  });
  return agent;
}

const statusUrl = () => `http://127.0.0.1:${port}/restart_status`;
/** The version directory of the svc-server process that serves now. */
function servingVersion(): string | undefined {
  try {
    const pid = readFileSync(join(root, "var/lib/svc-agent/svc-server.pid"), "utf8").trim();
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return /versions\/([^/]+)\//.exec(cmdline)?.[1];
  } catch {
    return undefined;
  }
}
const serving = (version: string) => async () => ((await fetchRestartStatus(statusUrl(), 1_000)) && servingVersion() === version ? true : undefined);
const badMarks = (): Record<string, { reason: string }> => {
  try {
    return JSON.parse(readFileSync(join(root, "var/lib/svc-agent/versions-svc-server.json"), "utf8")).bad ?? {};
  } catch {
    return {};
  }
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "svc-agent-e2e-"));
  root = join(work, "device");
  const out = join(work, "releases");
  served = out;
  mkdirSync(out, { recursive: true });
  releases = await startReleaseServer(out);
  for (const version of ["1.0.0", "2.0.0", "2.1.0"]) {
    const built = packageRelease(version, out);
    publish("svc-server", version, built.server);
    publish("agent", version, built.agent);
  }
  const good = artifacts.get("svc-server@2.0.0")!.file;
  publish("svc-server", "3.0.0", brokenServerRelease(good, "3.0.0", "exits", out));
  publish("svc-server", "3.0.1", brokenServerRelease(good, "3.0.1", "hangs", out));
  // Corrupted artifacts: a wrong checksum, and a file cut short (its entry describes the whole one).
  publish("svc-server", "4.0.0", good, (entry) => (entry.sha256 = "0".repeat(64)));
  const truncated = join(out, "svc-server-4.0.1-linux-amd64.tar.gz");
  writeFileSync(truncated, readFileSync(good).subarray(0, 100_000));
  publish("svc-server", "4.0.1", good);
  artifacts.get("svc-server@4.0.1")!.entry.url = basename(truncated);

  port = await freePort();
  configFile = join(work, "svc.json");
  windowFile = join(work, "window.json");
  modules = await buildFixtureModules(["probe-module"]);
  setWindow(false);
  writeConfig();
  agentExecutable = installAgent(root, artifacts.get("agent@1.0.0")!.file, "1.0.0");
  setStable("1.0.0");
}, 180_000);

afterAll(async () => {
  await agent?.stop();
  // An agent that restarted into a new version of itself is no child of ours: its lock names it.
  const lock = join(root, "run/svc-agent.lock");
  const pid = existsSync(lock) ? Number(readFileSync(lock, "utf8")) : 0;
  if (pid > 1 && pid !== agent?.child.pid) {
    try {
      process.kill(pid, "SIGTERM");
      await until("the restarted agent to stop", () => (existsSync(`/proc/${pid}`) ? undefined : true), 30_000);
    } catch {
      // Already gone.
    }
  }
  await releases?.close();
  modules?.remove();
  rmSync(work, { recursive: true, force: true });
});

describe("svc-agent with a release server", () => {
  it("installs svc-server 1.0.0 from the stable channel and runs it until it serves", async () => {
    startAgent();
    await until("svc-server 1.0.0 serving", serving("1.0.0"));
    expect(currentVersion(root, "svc-server")).toBe("1.0.0");
    const version = execFileSync(join(root, "opt/svc/svc-server/current/svc-server"), ["-version"], { encoding: "utf8" });
    expect(version.trim()).toBe("svc-server 1.0.0");
  }, 90_000);

  it("downloads and verifies 2.0.0 at once, and activates it only when /restart_status allows a restart", async () => {
    setStable("2.0.0");
    await until("2.0.0 downloaded and installed", () => (existsSync(join(root, "opt/svc/svc-server/versions/2.0.0/svc-server")) ? true : undefined));
    await until("the agent saying 2.0.0 waits for the maintenance window", () => (agent!.output().includes("activated when the maintenance window allows") ? true : undefined));
    // The window says no: 1.0.0 keeps serving through several more checks.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(servingVersion()).toBe("1.0.0");
    expect(currentVersion(root, "svc-server")).toBe("1.0.0");

    setWindow(true);
    await until("svc-server 2.0.0 serving", serving("2.0.0"));
    expect(currentVersion(root, "svc-server")).toBe("2.0.0");
    expect(agent!.output()).toContain("activated svc-server 2.0.0 (was 1.0.0)");
  }, 90_000);

  it("rolls back a release that exits at start to 2.0.0, marks it bad and does not try it again", async () => {
    setStable("3.0.0");
    await until("3.0.0 marked bad", () => badMarks()["3.0.0"]);
    expect(badMarks()["3.0.0"]!.reason).toMatch(/stopped 3 times/);
    await until("svc-server 2.0.0 serving again", serving("2.0.0"));
    expect(currentVersion(root, "svc-server")).toBe("2.0.0");
    expect(agent!.output()).toMatch(/rolled back to svc-server 2\.0\.0 and marked 3\.0\.0 bad/);
    // Later checks see the same stable version and leave it alone.
    const downloads = () => releases.requests.filter((request) => request.path.includes("3.0.0")).length;
    const before = downloads();
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(downloads()).toBe(before);
    expect(servingVersion()).toBe("2.0.0");
  }, 90_000);

  it("rolls back a release that never serves once the start timeout has passed", async () => {
    setStable("3.0.1");
    await until("3.0.1 marked bad", () => badMarks()["3.0.1"]);
    expect(badMarks()["3.0.1"]!.reason).toContain("did not serve within the start timeout");
    await until("svc-server 2.0.0 serving again", serving("2.0.0"));
    // Killed once at its start timeout, and the rollback came before any new start: 3.0.1 started
    // once, then 2.0.0 once.
    const starts = [...agent!.output().matchAll(/starting svc-server \S*\/versions\/([^/]+)\/svc-server /g)].map((match) => match[1]);
    expect(starts.slice(starts.indexOf("3.0.1"))).toEqual(["3.0.1", "2.0.0"]);
  }, 90_000);

  it("never installs an artifact whose checksum is wrong or which is cut short", async () => {
    for (const version of ["4.0.0", "4.0.1"]) {
      setStable(version);
      await until(`the agent refusing ${version}`, () => {
        const out = agent!.output();
        const at = out.lastIndexOf(`downloading svc-server ${version}`);
        return at >= 0 && /update check for svc-server: download .*expected/.test(out.slice(at)) ? true : undefined;
      });
      expect(existsSync(join(root, "opt/svc/svc-server/versions", version))).toBe(false);
    }
    expect(currentVersion(root, "svc-server")).toBe("2.0.0");
    expect(servingVersion()).toBe("2.0.0");
  }, 90_000);

  it("stops svc-server for disable_viam_server and starts it again when it is cleared", async () => {
    setStable("2.0.0");
    writeConfig({ agent: { advanced_settings: { disable_viam_server: true } } });
    await until("svc-server stopped", async () => ((await fetchRestartStatus(statusUrl(), 500)) ? undefined : true));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await fetchRestartStatus(statusUrl(), 500)).toBeUndefined();
    writeConfig();
    await until("svc-server 2.0.0 serving again", serving("2.0.0"));
  }, 90_000);

  it("leaves a runnable current version when the agent is killed at any step of an update", async () => {
    // Slow enough that the agent can be killed in the middle of the download.
    releases.behave({ bytesPerSecond: 256 * 1024 });
    setStable("2.1.0");
    const partial = () => {
      const dir = join(root, "var/cache/svc-agent/downloads");
      try {
        return execFileSync("sh", ["-c", `ls "${dir}" | grep partial`], { encoding: "utf8" }) ? true : undefined;
      } catch {
        return undefined;
      }
    };
    const steps: [string, () => unknown][] = [
      ["downloading", partial],
      ["installed, waiting to be activated", () => (agent!.output().includes("svc-server 2.1.0 is ready") ? true : undefined)],
      // (Activated already when the window let it through before the previous kill.)
      ["activated", () => (agent!.output().includes("activated svc-server 2.1.0") || currentVersion(root, "svc-server") === "2.1.0" ? true : undefined)],
    ];
    for (const [step, reached] of steps) {
      await until(`the update ${step}`, reached);
      await agent!.kill9();
      const current = currentVersion(root, "svc-server")!;
      const version = execFileSync(join(root, "opt/svc/svc-server/current/svc-server"), ["-version"], { encoding: "utf8" });
      expect(version.trim(), `after a kill while ${step}`).toBe(`svc-server ${current}`);
      if (step === "downloading") {
        // Full speed from here, and the window shut so the next kill finds 2.1.0 installed and waiting.
        releases.behave({});
        setWindow(false);
      }
      startAgent();
      await until(`svc-server serving after the kill while ${step}`, async () => ((await fetchRestartStatus(statusUrl(), 1_000)) ? true : undefined));
    }
    setWindow(true);
    await until("svc-server 2.1.0 serving", serving("2.1.0"));
    expect(statSync(join(root, "opt/svc/svc-server/versions/2.1.0/svc-server")).isFile()).toBe(true);
  }, 180_000);

  it("updates itself: installs the new agent version and restarts into it", async () => {
    setStable("2.1.0", "2.0.0");
    await until("svc-agent 2.0.0 running", () => (agent!.output().includes("svc-agent 2.0.0 starting") ? true : undefined));
    expect(currentVersion(root, "agent")).toBe("2.0.0");
    expect(agent!.output()).toContain("activated svc-agent 2.0.0 (was 1.0.0)");
    await until("svc-server 2.1.0 serving under the new agent", serving("2.1.0"));
    // The new version ran healthy through its probation: the fallback's marker is gone.
    await until("the self-update marker removed", () => (existsSync(join(root, "var/lib/svc-agent/agent-update.json")) ? undefined : true));
  }, 120_000);
});
