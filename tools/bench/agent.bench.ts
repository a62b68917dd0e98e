// svc-agent at real time (no time scale): artifacts built by tools/package (svc-server 1.0.0 and
// 2.0.0, and a 3.0.0 that exits at start), served from a folder on loopback; the agent installed
// under a temporary device root, running 1.0.0 with a maintenance window that is open. Then:
// - upgrade downtime: the configuration pins 2.0.0; /restart_status is asked every 5 ms, and the
//   longest stretch without an answer, from the old server stopping to the new one serving;
// - rollback: the configuration pins the broken 3.0.0; the time svc-server does not serve, from
//   the old version stopping to the previous version serving again after the rollback;
// - the agent's resident memory once it is idle.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fetchRestartStatus } from "../../targets/linux/agent/server/restart-status.js";
import { artifactEntry, brokenServerRelease, installAgent, packageRelease, startAgentProcess } from "../../test/helpers/agent-fixture.js";
import { freePort } from "../../test/helpers/free-port.js";
import { buildFixtureModules } from "../../test/helpers/module-fixtures.js";
import { startReleaseServer } from "../../test/helpers/release-server.js";
import { report } from "./report.js";

const work = mkdtempSync(join(tmpdir(), "svc-agent-bench-"));
const served = join(work, "releases");
mkdirSync(served);
const root = join(work, "device");
const modules = await buildFixtureModules(["probe-module"]);
const releases = await startReleaseServer(served);
try {
  const builds = ["1.0.0", "2.0.0"].map((version) => packageRelease(version, served));
  const broken = brokenServerRelease(builds[1]!.server, "3.0.0", "exits", served);
  const servers = { "1.0.0": builds[0]!.server, "2.0.0": builds[1]!.server, "3.0.0": broken };
  const entry = (file: string) => ({ "linux/amd64": artifactEntry(file, basename(file)) });
  writeFileSync(
    join(served, "index.json"),
    JSON.stringify({
      "svc-server": { channels: { stable: "1.0.0" }, versions: Object.fromEntries(Object.entries(servers).map(([v, f]) => [v, entry(f)])) },
      agent: { channels: { stable: "1.0.0" }, versions: { "1.0.0": entry(builds[0]!.agent) } },
    }),
  );

  const port = await freePort();
  const configFile = join(work, "svc.json");
  const windowFile = join(work, "window.json");
  writeFileSync(windowFile, JSON.stringify({ ok: true }));
  const writeConfig = (serverVersion: string) =>
    writeFileSync(
      configFile,
      JSON.stringify({
        network: { bind_address: `127.0.0.1:${port}` },
        modules: [{ type: "local", name: "probe", executable_path: modules.path("probe-module"), env: { PROBE_READINGS_FILE: windowFile } }],
        components: [{ name: "window", api: "rdk:component:sensor", model: "test:fixture:probe" }],
        maintenance: { sensor_name: "rdk:component:sensor/window", maintenance_allowed_key: "ok" },
        agent: { version_control: { "svc-server": serverVersion, agent: "1.0.0" } },
      }),
    );
  writeConfig("1.0.0");
  const agent = startAgentProcess(installAgent(root, builds[0]!.agent, "1.0.0"), ["-c", configFile, "--defaults", join(work, "none.json")], {
    SVC_AGENT_ROOT: root,
    SVC_AGENT_RELEASE_INDEX: `${releases.url}index.json`,
  });
  const statusUrl = `http://127.0.0.1:${port}/restart_status`;
  const servingVersion = () => {
    try {
      const pid = readFileSync(join(root, "var/lib/svc-agent/svc-server.pid"), "utf8").trim();
      return /versions\/([^/]+)\//.exec(readFileSync(`/proc/${pid}/cmdline`, "utf8"))?.[1];
    } catch {
      return undefined;
    }
  };
  async function waitServing(version: string, timeoutMs = 120_000): Promise<void> {
    const giveUp = Date.now() + timeoutMs;
    while (!((await fetchRestartStatus(statusUrl, 500)) && servingVersion() === version)) {
      if (Date.now() > giveUp) throw new Error(`svc-server ${version} did not serve; agent said:\n${agent.output().slice(-3000)}`);
      await sleep(20);
    }
  }
  // The longest time without an answer until `version` serves and `done` holds.
  async function outageWhileMovingTo(version: string, done: () => boolean = () => true): Promise<number> {
    let lastAnswer = performance.now();
    let longest = 0;
    const giveUp = Date.now() + 120_000;
    for (;;) {
      const answered = (await fetchRestartStatus(statusUrl, 200)) !== undefined;
      const now = performance.now();
      if (answered) {
        longest = Math.max(longest, now - lastAnswer);
        lastAnswer = now;
        if (servingVersion() === version && done() && longest > 0) return longest;
      }
      if (Date.now() > giveUp) throw new Error(`svc-server ${version} did not serve; agent said:\n${agent.output().slice(-3000)}`);
      await sleep(5);
    }
  }

  try {
    await waitServing("1.0.0");
    await sleep(2_000);
    writeConfig("2.0.0");
    report("agent server upgrade downtime", await outageWhileMovingTo("2.0.0"), "ms", "< 2000 ms");

    await sleep(2_000);
    writeConfig("3.0.0");
    // 2.0.0 stops, 3.0.0 fails three times, 2.0.0 serves again.
    const outage = await outageWhileMovingTo("2.0.0", () => agent.output().includes("marked 3.0.0 bad"));
    report("agent rollback after a broken release (not serving)", outage / 1000, "s");

    await sleep(5_000);
    const status = readFileSync(`/proc/${agent.child.pid}/status`, "utf8");
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    report("agent resident memory (idle, server running)", rssKb / 1024, "MB", "< 60 MB");
  } finally {
    await agent.stop();
  }
} finally {
  await releases.close();
  modules.remove();
  rmSync(work, { recursive: true, force: true });
}
