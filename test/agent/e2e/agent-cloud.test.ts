// svc-agent on a machine svc-cloud manages, end to end with real processes on loopback, driven
// from svc-cloud's web app in headless Chromium as a person would: releases built by tools/package
// and imported with `svc-cloud release add`; a machine made in the web app, and the install
// command its page shows run as written (tools/install.sh under a device root), which installs
// the agent and fetches the machine's credentials file; the config saved in the page's editor
// (modules, processes, a fragment, global_log_configuration, the agent's versions) reaches the
// machine: the agent installs svc-server from svc-cloud's release index and the server runs the
// config, as the official SDK sees it. An edit and a history restore in the page reach the SDK
// too; the machine's logs are in the page, filtered by level; a version change in the page upgrades
// svc-server once the maintenance window (a sensor of the config) opens, and the part's status in
// the page shows what is installed and running. With svc-cloud stopped, the agent and server
// restarted run the cached config, and their logs from meanwhile arrive later.
// Time runs 100 times faster (SVC_AGENT_TIME_SCALE=0.01).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppService } from "../../../proto/gen/app/v1/app_pb.js";
import { CloudService } from "../../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { startAgentProcess, type AgentProcess } from "../../helpers/agent-fixture.js";
import { pasteConfig, screenshots, signInAt } from "../../helpers/cloud-browser.js";
import { signedInClient } from "../../helpers/cloud-client.js";
import { runCloud, startCloud, type CloudProcess, type InitResult } from "../../helpers/cloud-process.js";
import { eventually } from "../../helpers/eventually.js";
import { freePort } from "../../helpers/free-port.js";
import { buildFixtureModules, repoRoot, type BuiltModules } from "../../helpers/module-fixtures.js";
import { dialSdk } from "../../helpers/sdk-robot.js";

const until = <T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 120_000) =>
  eventually(probe, what, { timeoutMs }).catch((error: Error) => {
    throw new Error(`${error.message}\n--- agent output (end) ---\n${agent?.output().slice(-8000)}`);
  });

const OWNER = { email: "owner@example.com", password: "correct horse battery" };
let work: string;
let root: string;
let cloud: CloudProcess;
let init: InitResult;
let cloudPort: number;
/** svc-cloud on the same folder and port each time, so the credentials stay right. */
const startSameCloud = () => startCloud({ reuse: { dataDir: join(work, "cloud"), init }, args: ["--listen", `localhost:${cloudPort}`] });
let agent: AgentProcess | undefined;
let browser: Browser;
let page: Page;
let partId: string;
let fragmentId: string;
let port: number;
let windowFile: string;
let modules: BuiltModules;

// The window's sensor reads a file, so it opens and closes without a config change (which the
// window itself would defer).
const setWindow = (open: boolean) => writeFileSync(windowFile, JSON.stringify({ ok: open }));
// The part's config as the person saves it: a module, a process whose output goes to the logs (a
// line on stdout, one on stderr), a fragment, a log level per API, the maintenance window and the
// versions the agent installs.
const machineConfig = (extra: Record<string, unknown>[] = []) => ({
  network: { bind_address: `127.0.0.1:${port}` },
  fragments: [fragmentId],
  modules: [{ type: "local", name: "probe", executable_path: modules.path("probe-module"), env: { PROBE_READINGS_FILE: windowFile } }],
  components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }, { name: "window", api: "rdk:component:sensor", model: "test:fixture:probe" }, ...extra],
  processes: [{ id: "shout", name: "/bin/sh", args: ["-c", "echo shout-said-hello; echo shout-broke-down >&2"], one_shot: true, log: true }],
  global_log_configuration: [{ api: "rdk:component:sensor", level: "debug" }],
  maintenance: { sensor_name: "rdk:component:sensor/window", maintenance_allowed_key: "ok" },
  agent: { version_control: { "svc-server": "stable", agent: "1.0.0" } },
});

const configRegion = () => page.getByRole("region", { name: "Config", exact: true });
/** How many revisions the page's history lists, once it has listed any. */
async function historyRows(): Promise<number> {
  const rows = page.getByRole("region", { name: "History", exact: true }).locator("tbody tr");
  await rows.first().waitFor();
  return rows.count();
}
const statusRow = (name: string) => page.getByRole("region", { name: "Status" }).getByRole("row", { name: new RegExp(`^${name}`) }).locator("td");
const logMessages = () => page.getByRole("region", { name: "Logs", exact: true }).locator("table.logs tbody tr td:nth-child(4)").allTextContents();

/** Saves `config` from the page's editor, as a person pasting it and pressing Save; resolves once the new revision is listed. */
async function saveInPage(config: Record<string, unknown>): Promise<void> {
  const before = await historyRows();
  await pasteConfig(page, "Config", JSON.stringify(config, null, 2));
  await configRegion().getByRole("button", { name: "Save" }).click();
  await expect.poll(historyRows, { timeout: 30_000 }).toBe(before + 1);
}

function packageVersion(version: string, out: string, channel: string): void {
  execFileSync(process.execPath, [join(repoRoot, "tools/package/index.mjs"), "--version", version, "--out", out, "--arch", "amd64", "--channel", channel, "--quiet"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
}

async function reported(): Promise<{ server: string; agent: string } | undefined> {
  const owner = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
  const { parts } = await owner.getLocationVersions({ locationId: cloud.init.location_id });
  const part = parts.find((p) => p.partId === partId);
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
/** The names the machine serves, through the official SDK, once `ready` holds of them. */
async function namesOnMachine(what: string, ready: (names: string[]) => boolean): Promise<string[]> {
  const robot = await until("the server answering the SDK", () => dialSdk(`http://localhost:${port}`).catch(() => undefined));
  try {
    return await until(what, async () => {
      const names = await sensors(robot);
      return ready(names) ? names : undefined;
    });
  } finally {
    await robot.disconnect();
  }
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "svc-agent-cloud-"));
  root = join(work, "device");
  const releases = join(work, "releases");
  mkdirSync(releases, { recursive: true });
  packageVersion("1.0.0", releases, "stable");
  packageVersion("1.1.0", releases, "dev");
  const dataDir = join(work, "cloud");
  mkdirSync(dataDir);
  const made = runCloud(["init", "--email", OWNER.email, "--password", OWNER.password], dataDir);
  if (made.status !== 0) throw new Error(`svc-cloud init failed: ${made.stderr}`);
  init = JSON.parse(made.stdout) as InitResult;
  cloudPort = await freePort();
  cloud = await startSameCloud();
  const added = cloud.run(["release", "add", releases]);
  if (added.status !== 0) throw new Error(`release add failed: ${added.stderr}`);
  const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
  fragmentId = (await app.createFragment({ organizationId: init.organization_id, name: "beacons", config: { components: [{ name: "beacon", api: "rdk:component:sensor", model: "fake" }] } as never })).fragment!.id;
  port = await freePort();
  modules = await buildFixtureModules(["probe-module"]);
  windowFile = join(work, "window.json");
  setWindow(true);
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
  page = await browser.newPage();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await agent?.stop();
  await cloud?.stop();
  modules?.remove();
  rmSync(work, { recursive: true, force: true });
});

describe("svc-agent managed by svc-cloud", () => {
  it("installs a machine made in the web app with the command its page shows, and runs the config saved there", async () => {
    await signInAt(page, cloud.url, OWNER);
    const form = page.getByRole("form", { name: "New machine" });
    await form.getByLabel("New machine", { exact: true }).fill("rover");
    await form.getByRole("button", { name: "Create machine" }).click();
    await page.getByRole("heading", { name: "rover-main" }).waitFor();
    partId = /#\/part\/(.+)$/.exec(page.url())![1]!;
    await saveInPage(machineConfig());
    // svc-cloud merges the fragment itself: its editor has nothing to say of it.
    expect(await configRegion().getByRole("list", { name: "Config problems" }).locator("li").allTextContents()).toEqual([]);

    // The install command, run as written beside install.sh, as root on the machine would.
    await page.getByRole("button", { name: "New credentials file" }).click();
    const command = (await page.getByRole("region", { name: "Credentials" }).locator("pre").textContent())!;
    expect(command).toMatch(/^SVC_CLOUD_URL=\S+ SVC_PART_ID=\S+ SVC_API_KEY_ID=\S+ SVC_API_KEY=\S+ sh install.sh$/);
    const installed = spawnSync("sh", ["-c", command], { cwd: join(repoRoot, "tools"), encoding: "utf8", env: { PATH: process.env.PATH!, HOME: work, SVC_ROOT: root } });
    if (installed.status !== 0) throw new Error(`install.sh failed: ${installed.stderr}`);

    agent = startDeviceAgent();
    await until("svc-server 1.0.0 reported running", async () => ((await reported())?.server === "1.0.0" ? true : undefined));
    // The part's own sensors, the fragment's and the module's, as the SDK on the machine sees them.
    const names = await namesOnMachine("the cloud's config on the machine", (n) => n.includes("temp") && n.includes("beacon"));
    expect(names).toEqual(expect.arrayContaining(["temp", "window", "beacon"]));
    expect((await reported())?.agent).toBe("1.0.0");
    // The installed release carries the machine's own control page, script and all.
    expect((await fetch(`http://localhost:${port}/`)).headers.get("content-type")).toMatch(/^text\/html/);
    const script = await fetch(`http://localhost:${port}/page/app.js`);
    expect([script.status, script.headers.get("content-type")]).toEqual([200, "text/javascript; charset=utf-8"]);
    expect(readFileSync(join(root, "var/lib/svc-agent/cloud-agent.json"), "utf8")).toContain('"svc-server":"stable"');
    // The part's status in the page: what the machine runs, and that it runs the newest revision.
    await page.reload();
    await expect.poll(() => statusRow("svc-server").textContent(), { timeout: 30_000 }).toBe("1.0.0");
    expect(await statusRow("svc-agent").textContent()).toBe("1.0.0");
    await expect.poll(() => page.getByRole("region", { name: "Status" }).getByLabel("Config state").textContent(), { timeout: 30_000 }).toMatch(/the newest\.$/);
    await screenshots(page, "23-managed-part");
  }, 240_000);

  it("takes an edit and a history restore made in the web app, as the SDK on the machine sees", async () => {
    await saveInPage(machineConfig([{ name: "humidity", api: "rdk:component:sensor", model: "fake" }]));
    await namesOnMachine("the edit on the machine", (n) => n.includes("humidity"));
    // Restore the revision before the edit: a new revision equal to it, told to the machine at once.
    const history = page.getByRole("region", { name: "History", exact: true });
    const previous = (await history.locator("tbody tr td:nth-child(1)").allTextContents())[1]!;
    await history.getByRole("button", { name: `Restore ${previous}`, exact: true }).click();
    await namesOnMachine("the restore on the machine", (n) => !n.includes("humidity") && n.includes("temp"));
  }, 180_000);

  it("shows the machine's logs in the web app, filtered by level", async () => {
    // The process's lines, found among the machine's by their words, then by level.
    const search = async () => {
      await page.reload();
      const filter = page.getByRole("region", { name: "Logs", exact: true }).getByLabel("Filter logs");
      await filter.fill("shout-");
      await filter.press("Enter");
      return logMessages();
    };
    await expect.poll(search, { timeout: 60_000, interval: 2_000 }).toEqual(expect.arrayContaining(["shout-said-hello", "shout-broke-down"]));
    await page.getByLabel("Level").selectOption("error");
    await expect.poll(logMessages).toEqual(["shout-broke-down"]);
    await page.getByLabel("Level").selectOption("debug");
  }, 120_000);

  it("upgrades svc-server to the version set in the web app once the maintenance window opens, and the page shows it", async () => {
    await until("svc-server 1.0.0 through its probation", () => (agent!.output().includes("svc-server 1.0.0 passed its probation") ? true : undefined));
    setWindow(false);
    await page.reload();
    const versions = page.getByRole("region", { name: "Versions", exact: true });
    await versions.getByLabel("svc-server version").fill("1.1.0");
    const before = await historyRows();
    await versions.getByRole("button", { name: "Save versions" }).click();
    await expect.poll(historyRows, { timeout: 30_000 }).toBe(before + 1);
    await until("1.1.0 waiting for the window", () => (agent!.output().includes("svc-server 1.1.0 is ready; it is activated when the maintenance window allows a restart") ? true : undefined));
    expect((await reported())?.server).toBe("1.0.0");
    setWindow(true);
    await until("svc-server 1.1.0 reported running", async () => ((await reported())?.server === "1.1.0" ? true : undefined));
    await expect.poll(() => statusRow("svc-server").textContent(), { timeout: 30_000 }).toBe("1.1.0");
    await screenshots(page, "24-managed-part-upgraded");
  }, 240_000);

  it("sends its own logs to the part's logs", async () => {
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const logs = await until("the agent's lines in svc-cloud", async () => {
      const { logs } = await app.getRobotPartLogs({ id: partId, limit: 1000n });
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
      const { logs } = await app.getRobotPartLogs({ id: partId, limit: 1000n });
      const messages = logs.map((l) => l.message);
      return messages.includes("serving the cached configuration until svc-cloud answers") && messages.filter((m) => m === "svc-agent 1.0.0 starting").length === 2 ? true : undefined;
    });
  }, 240_000);
});
