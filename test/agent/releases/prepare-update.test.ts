// One update step: resolve, skip what is current or installed, download + verify (+ read the
// svc-release.json of a URL artifact) and install without activating; bad marks and bad
// downloads never get installed.
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCollectingSink, createLogEngine, createManualClock, parseReleaseIndex, type ReleaseIndex } from "../../../core/index.js";
import { agentPaths } from "../../../targets/linux/agent/agent-paths.js";
import { createVersionStore, prepareUpdate, type PrepareUpdateOptions } from "../../../targets/linux/agent/releases/index.js";
import { startReleaseServer, type ReleaseServer } from "../../helpers/release-server.js";

let work: string;
let server: ReleaseServer;
const shaOf = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

function makeArtifact(version: string): string {
  const tree = join(work, `tree-${version}`);
  mkdirSync(tree, { recursive: true });
  writeFileSync(join(tree, "svc-server"), `#!/bin/sh\necho "svc-server ${version}"\n`);
  chmodSync(join(tree, "svc-server"), 0o755);
  const file = join(work, "served", `svc-server-${version}.tar.gz`);
  execFileSync("tar", ["-czf", file, "-C", tree, "svc-server"]);
  return file;
}

let index: ReleaseIndex;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "svc-prepare-"));
  mkdirSync(join(work, "served"));
  const entry = (version: string, sha?: string) => {
    const file = makeArtifact(version);
    return { "linux/amd64": { url: `svc-server-${version}.tar.gz`, sha256: sha ?? shaOf(file), size: readFileSync(file).length } };
  };
  const json = {
    "svc-server": {
      channels: { stable: "1.1.0", dev: "1.2.0-dev.1" },
      versions: { "1.0.0": entry("1.0.0"), "1.1.0": entry("1.1.0"), "1.2.0-dev.1": entry("1.2.0-dev.1", "f".repeat(64)) },
    },
  };
  server = await startReleaseServer(join(work, "served"));
  const parsed = parseReleaseIndex(json, `${server.url}index.json`);
  expect(parsed.problems).toEqual([]);
  index = parsed.index;
  // Artifacts served by URL, naming their own version (or another product) in svc-release.json.
  for (const [name, product, version] of [["custom-build", "svc-server", "1.5.0-custom"], ["impostor", "svc-agent", "1.0.0"]]) {
    const tree = join(work, `tree-${name}`);
    mkdirSync(tree, { recursive: true });
    writeFileSync(join(tree, "svc-server"), "#!/bin/sh\nexit 0\n");
    chmodSync(join(tree, "svc-server"), 0o755);
    writeFileSync(join(tree, "svc-release.json"), JSON.stringify({ product, version, platform: "linux/amd64" }));
    execFileSync("tar", ["-czf", join(work, "served", `${name}.tar.gz`), "-C", tree, "svc-server", "svc-release.json"]);
  }
});
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

function setup() {
  const paths = agentPaths(mkdtempSync(join(work, "root-")));
  const store = createVersionStore(paths, "svc-server");
  const sink = createCollectingSink();
  const logger = createLogEngine({ clock: createManualClock(0), sink }).logger("agent.update");
  const options = (spec: string): PrepareUpdateOptions => ({
    product: "svc-server",
    index,
    spec,
    platform: "linux/amd64",
    store,
    downloadDir: paths.downloadDir,
    logger,
    download: { progress: "off", retryDelayMs: 0 },
  });
  return { paths, store, options, sink };
}

describe("preparing an update", () => {
  it("downloads, verifies and installs what the channel names, without activating it", async () => {
    const { store, options, paths } = setup();
    const prepared = await prepareUpdate(options("stable"));
    expect(prepared).toEqual({ kind: "ready", version: "1.1.0", versionDir: paths.versionDir("svc-server", "1.1.0") });
    expect(await store.current()).toBeUndefined();
    expect(readdirSync(paths.downloadDir)).toEqual([]);
    await store.activate("1.1.0");
    expect(await prepareUpdate(options("stable"))).toEqual({ kind: "upToDate", version: "1.1.0" });
  });

  it("uses an installed version without downloading it again (a downgrade)", async () => {
    const { store, options } = setup();
    for (const v of ["1.0.0", "1.1.0"]) {
      const prepared = await prepareUpdate(options(v));
      expect(prepared.kind).toBe("ready");
      await store.activate(v);
    }
    const before = server.requests.length;
    expect(await prepareUpdate(options("1.0.0"))).toMatchObject({ kind: "ready", version: "1.0.0" });
    expect(server.requests.length).toBe(before);
  });

  it("holds at the current version while the channel points at a version marked bad", async () => {
    const { store, options } = setup();
    await prepareUpdate(options("1.0.0"));
    await store.activate("1.0.0");
    await store.markBad("1.1.0", "never served");
    const held = await prepareUpdate(options("stable"));
    expect(held).toMatchObject({ kind: "upToDate", version: "1.0.0" });
    expect(held.kind === "upToDate" && held.reason).toMatch(/1\.1\.0 \(the stable channel\) is marked bad/);
    expect(await store.installed()).toEqual(["1.0.0"]);
  });

  it("never installs an artifact whose checksum does not match", async () => {
    const { store, options, paths } = setup();
    const prepared = await prepareUpdate(options("dev"));
    expect(prepared.kind).toBe("error");
    expect(prepared.kind === "error" && prepared.error).toMatch(/sha256 is [0-9a-f]{64}, expected f{64}; the download was deleted/);
    expect(await store.installed()).toEqual([]);
    expect(readdirSync(paths.downloadDir)).toEqual([]);
  });

  it("installs a pinned URL artifact under the version its svc-release.json names, and fetches that URL once", async () => {
    const { store, options } = setup();
    const file = join(work, "served", "custom-build.tar.gz");
    const url = `${server.url}custom-build.tar.gz#sha256=${shaOf(file)}`;
    const prepared = await prepareUpdate({ ...options(url), index: undefined });
    expect(prepared).toMatchObject({ kind: "ready", version: "1.5.0-custom" });
    await store.activate("1.5.0-custom");
    const before = server.requests.length;
    expect(await prepareUpdate({ ...options(url), index: undefined })).toEqual({ kind: "upToDate", version: "1.5.0-custom" });
    expect(server.requests.length).toBe(before);
  });

  it("refuses a URL artifact whose svc-release.json names another product", async () => {
    const { store, options } = setup();
    const file = join(work, "served", "impostor.tar.gz");
    const prepared = await prepareUpdate({ ...options(`${server.url}impostor.tar.gz#sha256=${shaOf(file)}`), index: undefined });
    expect(prepared.kind).toBe("error");
    expect(prepared.kind === "error" && prepared.error).toMatch(/it is not svc-server: its svc-release\.json says product "svc-agent"/);
    expect(await store.installed()).toEqual([]);
  });

  it("reports what cannot be resolved as an error", async () => {
    const { options } = setup();
    expect(await prepareUpdate(options("9.9.9"))).toEqual({ kind: "error", error: "svc-server 9.9.9 is not in the release index" });
    expect(await prepareUpdate({ ...options("stable"), platform: "linux/arm64" })).toEqual({
      kind: "error",
      error: "svc-server 1.1.0 has no artifact for linux/arm64 (only linux/amd64)",
    });
  });
});
