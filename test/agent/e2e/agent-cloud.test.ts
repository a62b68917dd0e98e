// svc-agent on a machine svc-cloud manages, end to end with real processes on loopback: releases
// built by tools/package and imported with `svc-cloud release add`; tools/install.sh, given the
// part's id and key and svc-cloud's address, installs the agent under a device root and fetches the
// machine's credentials file; the agent takes its settings from the part's config
// in svc-cloud, installs svc-server from svc-cloud's release index, and the server takes its
// config from the cloud (the official SDK sees it). A version change in svc-cloud upgrades the
// server once the maintenance window (a sensor of the cloud's config) opens; the agent reports
// what it runs (GetLocationVersions) and its logs reach the part's logs. With svc-cloud stopped, the
// agent and server restarted run the cached config, and their logs from meanwhile arrive later.
// Time runs 100 times faster (SVC_AGENT_TIME_SCALE=0.01).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppService } from "../../../proto/gen/app/v1/app_pb.js";
import { CloudService } from "../../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { startAgentProcess, type AgentProcess } from "../../helpers/agent-fixture.js";
import { signedInClient } from "../../helpers/cloud-client.js";
import { runCloud, startCloud, type CloudProcess, type InitResult, type MachineCredentials } from "../../helpers/cloud-process.js";
import { eventually } from "../../helpers/eventually.js";
import { freePort } from "../../helpers/free-port.js";
import { buildFixtureModules, repoRoot, type BuiltModules } from "../../helpers/module-fixtures.js";
import { dialSdk } from "../../helpers/sdk-robot.js";

const until = <T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 120_000) =>
  eventually(probe, what, { timeoutMs }).catch((error: Error) => {
    throw new Error(`${error.message}\n--- agent output (end) ---\n${agent?.output().slice(-8000)}`);
  });

let work: string;
let root: string;
let cloud: CloudProcess;
let init: InitResult;
let cloudPort: number;
/** svc-cloud on the same folder and port each time, so the credentials stay right. */
const startSameCloud = () => startCloud({ reuse: { dataDir: join(work, "cloud"), init }, args: ["--listen", `localhost:${cloudPort}`] });
let agent: AgentProcess | undefined;
let machine: MachineCredentials;
let port: number;
let windowFile: string;
let modules: BuiltModules;

// The window's sensor reads a file, so it opens and closes without a config change (which the
// window itself would defer).
const setWindow = (open: boolean) => writeFileSync(windowFile, JSON.stringify({ ok: open }));
const machineConfig = (versions: Record<string, string>) => ({
  modules: [{ type: "local", name: "probe", executable_path: modules.path("probe-module"), env: { PROBE_READINGS_FILE: windowFile } }],
  components: [
    { name: "temp", api: "rdk:component:sensor", model: "fake" },
    { name: "window", api: "rdk:component:sensor", model: "test:fixture:probe" },
  ],
  maintenance: { sensor_name: "rdk:component:sensor/window", maintenance_allowed_key: "ok" },
  agent: { version_control: versions },
});

function packageVersion(version: string, out: string, channel: string): void {
  execFileSync(process.execPath, [join(repoRoot, "tools/package/index.mjs"), "--version", version, "--out", out, "--arch", "amd64", "--channel", channel, "--quiet"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
}

async function editPart(config: Record<string, unknown>): Promise<void> {
  const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
  await app.updateRobotPart({ id: machine.cloud.id, name: "", robotConfig: { network: { bind_address: `127.0.0.1:${port}` }, ...config } as never });
}

async function reported(): Promise<{ server: string; agent: string } | undefined> {
  const owner = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
  const { parts } = await owner.getLocationVersions({ locationId: cloud.init.location_id });
  const part = parts.find((p) => p.partId === machine.cloud.id);
  return part && { server: part.svcServerReported, agent: part.svcAgentReported };
}

function startDeviceAgent(): AgentProcess {
  return startAgentProcess(join(root, "opt/svc/agent/current/svc-agent"), ["-c", join(root, "etc/svc.json"), "--defaults", join(work, "none.json")], {
    SVC_AGENT_ROOT: root,
    SVC_AGENT_TIME_SCALE: "0.01",
    HOME: join(root, "home"),
  });
}

const sensors = (robot: Awaited<ReturnType<typeof dialSdk>>) => robot.resourceNames().then((names) => names.map((n) => n.name));

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "svc-agent-cloud-"));
  root = join(work, "device");
  const releases = join(work, "releases");
  mkdirSync(releases, { recursive: true });
  packageVersion("1.0.0", releases, "stable");
  packageVersion("1.1.0", releases, "dev");
  const dataDir = join(work, "cloud");
  mkdirSync(dataDir);
  init = JSON.parse(runCloud(["init"], dataDir).stdout) as InitResult;
  cloudPort = await freePort();
  cloud = await startSameCloud();
  const added = cloud.run(["release", "add", releases]);
  if (added.status !== 0) throw new Error(`release add failed: ${added.stderr}`);
  machine = cloud.createMachine("rover");
  port = await freePort();
  modules = await buildFixtureModules(["probe-module"]);
  windowFile = join(work, "window.json");
  setWindow(true);
  // As a person installs a machine: the install script with the part's id and key.
  const installed = spawnSync("sh", [join(repoRoot, "tools/install.sh")], {
    encoding: "utf8",
    env: { PATH: process.env.PATH!, HOME: work, SVC_ROOT: root, SVC_CLOUD_URL: cloud.url, SVC_PART_ID: machine.cloud.id, SVC_API_KEY_ID: machine.cloud.api_key.id, SVC_API_KEY: machine.cloud.api_key.key },
  });
  if (installed.status !== 0) throw new Error(`install.sh failed: ${installed.stderr}`);
}, 240_000);

afterAll(async () => {
  await agent?.stop();
  await cloud?.stop();
  modules?.remove();
  rmSync(work, { recursive: true, force: true });
});

describe("svc-agent managed by svc-cloud", () => {
  it("installs svc-server from svc-cloud's releases, which runs the part's config from the cloud", async () => {
    await editPart(machineConfig({ "svc-server": "stable", agent: "1.0.0" }));
    agent = startDeviceAgent();
    await until("svc-server 1.0.0 reported running", async () => ((await reported())?.server === "1.0.0" ? true : undefined));
    const robot = await until("the server answering the SDK", () => dialSdk(`http://localhost:${port}`).catch(() => undefined));
    try {
      await until("the cloud's sensor on the machine", async () => ((await sensors(robot)).includes("temp") ? true : undefined));
    } finally {
      await robot.disconnect();
    }
    expect((await reported())?.agent).toBe("1.0.0");
    expect(readFileSync(join(root, "var/lib/svc-agent/cloud-agent.json"), "utf8")).toContain('"svc-server":"stable"');
  }, 180_000);

  it("upgrades svc-server to the version set in svc-cloud once the maintenance window opens", async () => {
    await until("svc-server 1.0.0 through its probation", () => (agent!.output().includes("svc-server 1.0.0 passed its probation") ? true : undefined));
    setWindow(false);
    await editPart(machineConfig({ "svc-server": "1.1.0", agent: "1.0.0" }));
    await until("1.1.0 waiting for the window", () => (agent!.output().includes("svc-server 1.1.0 is ready; it is activated when the maintenance window allows a restart") ? true : undefined));
    expect((await reported())?.server).toBe("1.0.0");
    setWindow(true);
    await until("svc-server 1.1.0 reported running", async () => ((await reported())?.server === "1.1.0" ? true : undefined));
  }, 240_000);

  it("sends its own logs to the part's logs", async () => {
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const logs = await until("the agent's lines in svc-cloud", async () => {
      const { logs } = await app.getRobotPartLogs({ id: machine.cloud.id, limit: 1000n });
      return logs.some((l) => l.loggerName.startsWith("svc-agent")) ? logs : undefined;
    });
    expect(logs.find((l) => l.loggerName === "svc-agent" && l.message === "svc-agent 1.0.0 starting")?.level).toBe("info");
  });

  it("restarts without svc-cloud on the cached config, and its logs from meanwhile arrive once the cloud is back", async () => {
    expect(await cloud.stop()).toBe(0);
    expect(await agent!.stop()).toBe(0);
    agent = startDeviceAgent();
    const robot = await until("the restarted server answering the SDK", () => dialSdk(`http://localhost:${port}`).catch(() => undefined));
    try {
      await until("the cached sensor", async () => ((await sensors(robot)).includes("temp") ? true : undefined));
      expect((await robot.getMachineStatus()).config?.revision).toMatch(/^\d+ \(cache\)$/);
    } finally {
      await robot.disconnect();
    }
    cloud = await startSameCloud();
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    await until("the lines from the outage in svc-cloud", async () => {
      const { logs } = await app.getRobotPartLogs({ id: machine.cloud.id, limit: 1000n });
      const messages = logs.map((l) => l.message);
      return messages.includes("serving the cached configuration until svc-cloud answers") && messages.filter((m) => m === "svc-agent 1.0.0 starting").length === 2 ? true : undefined;
    });
  }, 240_000);
});
