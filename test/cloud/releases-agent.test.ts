// Releases: `svc-cloud release add DIR` imports what `npm run package` wrote, svc-cloud serves the
// artifacts with their sha256, ListReleases and SetChannel move the channels, and
// AgentDeviceService.DeviceAgentConfig answers an agent with its settings and the updates its
// part's version_control asks for on its platform, recording the versions it reports. The hostile
// half: a folder with a wrong sha256 or a missing file, a version imported twice with different
// bytes, other parts' and missing credentials, paths outside the release files.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { durationMs } from "@bufbuild/protobuf/wkt";
import { createClient } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseReleaseIndex } from "../../core/index.js";
import { AgentDeviceService } from "../../proto/gen/app/agent/v1/agent_pb.js";
import { CloudService } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { openStore } from "../../targets/cloud/storage/open-store.js";
import { saveRevision } from "../../targets/cloud/storage/revisions.js";
import { cloudTransport, signedInClient } from "../helpers/cloud-client.js";
import { startCloud, type CloudProcess } from "../helpers/cloud-process.js";
import { repoRoot } from "../helpers/module-fixtures.js";

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

let cloud: CloudProcess;
let packages: string;
const scratch: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-releases-"));
  scratch.push(dir);
  return dir;
}

function packageVersion(version: string, out: string, channel = "stable"): void {
  execFileSync(process.execPath, [join(repoRoot, "tools/package/index.mjs"), "--version", version, "--out", out, "--arch", "amd64", "--channel", channel, "--quiet"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
}

async function setPartConfig(partId: string, config: Record<string, unknown>): Promise<void> {
  const store = await openStore(cloud.dataDir);
  await saveRevision(store.db, { partId, config, editedBy: "test", now: Date.now() }).finally(() => store.close());
}

beforeAll(async () => {
  cloud = await startCloud();
  packages = tempDir();
  packageVersion("1.0.0", packages);
  packageVersion("1.1.0", packages, "dev");
}, 120_000);
afterAll(async () => {
  await cloud?.stop();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe("svc-cloud release add", () => {
  it("imports npm run package's folder, serves each artifact with its sha256, and moves the channel", async () => {
    const added = cloud.run(["release", "add", packages]);
    expect(added.stderr).toBe("");
    expect(added.status).toBe(0);
    const result = JSON.parse(added.stdout);
    expect(result.imported).toHaveLength(4);
    expect(result.channels).toEqual([
      { product: "svc-server", channel: "stable", version: "1.0.0" },
      { product: "agent", channel: "stable", version: "1.0.0" },
    ]);
    const dev = cloud.run(["release", "add", packages, "--channel", "dev"]);
    expect(dev.status).toBe(0);
    expect(JSON.parse(dev.stdout).imported.every((i: { new: boolean }) => !i.new)).toBe(true);

    const releases = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    const listed = await releases.listReleases({});
    expect(listed.channels.map((c) => `${c.product} ${c.name} ${c.version}`).sort()).toEqual([
      "svc-agent dev 1.1.0",
      "svc-agent stable 1.0.0",
      "svc-server dev 1.1.0",
      "svc-server stable 1.0.0",
    ]);
    const server = listed.releases.find((r) => r.product === "svc-server" && r.version === "1.1.0")!;
    expect(server).toMatchObject({ platform: "linux/amd64", url: `${cloud.url}/releases/svc-server-1.1.0-linux-amd64.tar.gz` });
    const response = await fetch(server.url);
    expect(response.status).toBe(200);
    const body = Buffer.from(await response.arrayBuffer());
    expect(sha256(body)).toBe(server.sha256);
    expect(response.headers.get("x-checksum-sha256")).toBe(server.sha256);
    expect(body.length).toBe(Number(server.size));
    expect(server.sha256).toBe(sha256(readFileSync(join(packages, "svc-server-1.1.0-linux-amd64.tar.gz"))));

    const agents = await releases.listReleases({ product: "svc-agent" });
    expect(new Set(agents.releases.map((r) => r.product))).toEqual(new Set(["svc-agent"]));

    // The same, as a release index that tools/install.sh and svc-agent read from any release server.
    const indexUrl = `${cloud.url}/releases/index.json`;
    const served = await fetch(indexUrl);
    expect(served.status).toBe(200);
    const parsed = parseReleaseIndex(await served.json(), indexUrl);
    expect(parsed.problems).toEqual([]);
    expect(parsed.index["svc-server"]?.channels).toEqual({ stable: "1.0.0", dev: "1.1.0" });
    expect(parsed.index["svc-server"]?.versions["1.1.0"]?.["linux/amd64"]).toEqual({ url: server.url, sha256: server.sha256, size: Number(server.size) });
    expect(parsed.index.agent?.channels).toEqual({ stable: "1.0.0", dev: "1.1.0" });
  });

  it("refuses a folder with a wrong sha256, a missing file or a version that would change, importing nothing", async () => {
    const bad = tempDir();
    cpSync(packages, bad, { recursive: true });
    const index = JSON.parse(readFileSync(join(bad, "index.json"), "utf8"));
    index["svc-server"].versions["1.1.0"]["linux/amd64"].sha256 = "0".repeat(64);
    writeFileSync(join(bad, "index.json"), JSON.stringify(index));
    const wrong = cloud.run(["release", "add", bad]);
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toMatch(/svc-server-1\.1\.0-linux-amd64\.tar\.gz has sha256 [0-9a-f]{64}, index.json says 0{64}/);

    const missing = tempDir();
    cpSync(packages, missing, { recursive: true });
    unlinkSync(join(missing, "svc-agent-1.0.0-linux-amd64.tar.gz"));
    const gone = cloud.run(["release", "add", missing]);
    expect(gone.status).toBe(1);
    expect(gone.stderr).toMatch(/agent\.versions\["1\.0\.0"\]\["linux\/amd64"\]: .*svc-agent-1\.0\.0-linux-amd64\.tar\.gz is missing/);

    // The same version with other bytes (and an index that agrees with them) is not a new release.
    const changed = tempDir();
    cpSync(packages, changed, { recursive: true });
    const artifact = join(changed, "svc-server-1.0.0-linux-amd64.tar.gz");
    const bytes = readFileSync(artifact);
    bytes.write("tampered", bytes.length >> 1);
    writeFileSync(artifact, bytes);
    const changedIndex = JSON.parse(readFileSync(join(changed, "index.json"), "utf8"));
    Object.assign(changedIndex["svc-server"].versions["1.0.0"]["linux/amd64"], { sha256: sha256(readFileSync(artifact)), size: readFileSync(artifact).length });
    writeFileSync(join(changed, "index.json"), JSON.stringify(changedIndex));
    const replaced = cloud.run(["release", "add", changed]);
    expect(replaced.status).toBe(1);
    expect(replaced.stderr).toMatch(/svc-server 1\.0\.0 for linux\/amd64 is already imported with another sha256/);

    expect(cloud.run(["release", "add", tempDir()]).stderr).toMatch(/index\.json: not found/);
    expect(cloud.run(["release", "add", packages, "--channel", "nightly"]).stderr).toMatch(/--channel "nightly": must be stable or dev/);

    // What is served is still what was imported first.
    const releases = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    const served = (await releases.listReleases({ product: "svc-server" })).releases.find((r) => r.version === "1.0.0")!;
    expect(served.sha256).toBe(sha256(readFileSync(join(packages, "svc-server-1.0.0-linux-amd64.tar.gz"))));
    expect(sha256(Buffer.from(await (await fetch(served.url)).arrayBuffer()))).toBe(served.sha256);
    for (const path of ["/releases/..%2Fsvc-cloud.db", "/releases/svc-cloud.db", "/releases/", "/releases/index.json.tar.gz"]) {
      expect((await fetch(`${cloud.url}${path}`)).status).toBe(404);
    }
  });

  it("lets the first organisation's owner move a channel to an imported version, and nobody else", async () => {
    const owner = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    const moved = await owner.setChannel({ product: "svc-agent", channel: "stable", version: "1.1.0" });
    expect(moved.channel).toMatchObject({ product: "svc-agent", name: "stable", version: "1.1.0" });
    await expect(owner.setChannel({ product: "svc-agent", channel: "stable", version: "9.9.9" })).rejects.toThrow(/\[not_found\] svc-agent 9\.9\.9 is not imported/);
    await expect(owner.setChannel({ product: "svc-agent", channel: "beta", version: "1.1.0" })).rejects.toThrow(/channel: "beta" is not a channel/);
    await expect(owner.setChannel({ product: "svc-mcu", channel: "stable", version: "1.1.0" })).rejects.toThrow(/product: "svc-mcu" is not a product/);
    const machine = cloud.createMachine("not-an-owner");
    const partKey = await signedInClient(CloudService, cloud.url, machine.cloud.api_key);
    await expect(partKey.setChannel({ product: "svc-agent", channel: "stable", version: "1.0.0" })).rejects.toThrow(/\[permission_denied\]/);
    await expect(partKey.listReleases({})).rejects.toThrow(/\[permission_denied\]/);
    await expect(createClient(CloudService, cloudTransport(cloud.url)).listReleases({})).rejects.toThrow(/\[unauthenticated\]/);
    await owner.setChannel({ product: "svc-agent", channel: "stable", version: "1.0.0" });
  });
});

describe("DeviceAgentConfig", () => {
  it("answers the agent's settings and the updates its version_control asks for, and records what it runs", async () => {
    const machine = cloud.createMachine("agent-asks");
    const pinned = `http://downloads.example/svc-server.tar.gz#sha256=${"ab".repeat(32)}`;
    await setPartConfig(machine.cloud.id, {
      agent: {
        version_control: { agent: "1.0.0", "svc-server": "dev" },
        advanced_settings: { debug: true, viam_server_start_timeout_minutes: 3 },
        network_configuration: { hotspot_prefix: "arm-setup", wifi_power_save: null },
        additional_networks: { shop: { type: "wifi", ssid: "shop", priority: 10 } },
        system_configuration: { os_auto_upgrade_type: "security" },
      },
    });
    const agent = await signedInClient(AgentDeviceService, cloud.url, machine.cloud.api_key);
    const answer = await agent.deviceAgentConfig({
      id: machine.cloud.id,
      hostInfo: { platform: "linux/amd64", distro: "debian:12", tags: ["systemd"] },
      versionInfo: { agentRunning: "0.9.0", agentInstalled: "0.9.0", viamServerRunning: "0.9.1", viamServerInstalled: "1.0.0" },
    });
    expect(durationMs(answer.checkInterval!)).toBeGreaterThan(0);
    expect(answer.agentUpdateInfo).toMatchObject({ version: "1.0.0", url: `${cloud.url}/releases/svc-agent-1.0.0-linux-amd64.tar.gz`, filename: "svc-agent-1.0.0-linux-amd64.tar.gz" });
    expect(hex(answer.agentUpdateInfo!.sha256)).toBe(sha256(readFileSync(join(packages, "svc-agent-1.0.0-linux-amd64.tar.gz"))));
    expect(answer.viamServerUpdateInfo).toMatchObject({ version: "1.1.0", url: `${cloud.url}/releases/svc-server-1.1.0-linux-amd64.tar.gz` });
    expect(answer.advancedSettings).toEqual({ debug: true, viam_server_start_timeout_minutes: 3 });
    expect(answer.networkConfiguration).toEqual({ hotspot_prefix: "arm-setup", wifi_power_save: null });
    expect(answer.additionalNetworks).toEqual({ shop: { type: "wifi", ssid: "shop", priority: 10 } });
    expect(answer.systemConfiguration).toEqual({ os_auto_upgrade_type: "security" });

    const store = await openStore(cloud.dataDir);
    const row = await store.db.selectFrom("parts").select(["reported_versions", "last_access"]).where("id", "=", machine.cloud.id).executeTakeFirstOrThrow().finally(() => store.close());
    expect(JSON.parse(row.reported_versions!)).toMatchObject({ agent: "0.9.0", server: "0.9.1", server_installed: "1.0.0", agent_installed: "0.9.0", os: "debian:12", platform: "linux/amd64", tags: ["systemd"] });
    expect(row.last_access).not.toBeNull();

    // Another platform has no artifact: no update, the agent keeps what it runs. A pinned URL is
    // handed over as it is, and an unset version_control follows stable.
    await setPartConfig(machine.cloud.id, { agent: { version_control: { "svc-server": pinned } } });
    const arm = await agent.deviceAgentConfig({ id: machine.cloud.id, hostInfo: { platform: "linux/arm64" } });
    expect(arm.agentUpdateInfo).toBeUndefined();
    expect(arm.viamServerUpdateInfo).toMatchObject({ url: "http://downloads.example/svc-server.tar.gz", version: pinned, filename: "svc-server.tar.gz" });
    expect(hex(arm.viamServerUpdateInfo!.sha256)).toBe("ab".repeat(32));
    const amd = await agent.deviceAgentConfig({ id: machine.cloud.id, hostInfo: { platform: "linux/amd64" } });
    expect(amd.agentUpdateInfo?.version).toBe("1.0.0");
    expect(amd.advancedSettings).toEqual({});
  });

  it("refuses no credentials, another part's key and oversize reports", async () => {
    const machine = cloud.createMachine("agent-own");
    const neighbour = cloud.createMachine("agent-other");
    await expect(createClient(AgentDeviceService, cloudTransport(cloud.url)).deviceAgentConfig({ id: machine.cloud.id })).rejects.toThrow(/\[unauthenticated\]/);
    const other = await signedInClient(AgentDeviceService, cloud.url, neighbour.cloud.api_key);
    await expect(other.deviceAgentConfig({ id: machine.cloud.id })).rejects.toThrow(/\[not_found\] part .* not found/);
    const agent = await signedInClient(AgentDeviceService, cloud.url, machine.cloud.api_key);
    await expect(agent.deviceAgentConfig({ id: machine.cloud.id, versionInfo: { agentRunning: "9".repeat(500) } })).rejects.toThrow(/version_info\.agent_running: at most 128 characters/);
  });
});
