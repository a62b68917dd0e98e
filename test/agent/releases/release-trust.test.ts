// What the agent trusts before it installs (and later runs as root) an artifact given by URL, over
// real sockets: https on its own, http and file URLs only pinned by a sha256 (an unpinned one is
// refused before anything is fetched), never a redirect from https down to http; the version
// comes from the artifact's svc-release.json and nothing it holds is run to find out; and no body
// is read without a bound (the index: 4 MiB; an artifact: its size, or a cap).
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttpsServer, globalAgent } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCollectingSink, createLogEngine, createManualClock } from "../../../core/index.js";
import { agentPaths } from "../../../targets/linux/agent/agent-paths.js";
import { createVersionStore, currentPlatform, fetchReleaseIndex, prepareUpdate, type PrepareUpdateOptions } from "../../../targets/linux/agent/releases/index.js";
import { startReleaseServer, type ReleaseServer } from "../../helpers/release-server.js";
import { requireTools } from "../../helpers/system-tools.js";

let work: string;
let served: string;
let plain: ReleaseServer;
let tls: Server;
let tlsUrl: string;
let chunked: Server;
let chunkedUrl: string;
/** Written by the artifact's executable if anything ever runs it. */
let ran: string;
const shaOf = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** An artifact as `npm run package` makes it: the entry point and its svc-release.json at the top. */
function packaged(name: string, manifest: Record<string, unknown>): string {
  const tree = join(work, `tree-${name}`);
  mkdirSync(tree, { recursive: true });
  writeFileSync(join(tree, "svc-server"), `#!/bin/sh\ntouch "${ran}"\necho "svc-server 6.6.6"\n`);
  chmodSync(join(tree, "svc-server"), 0o755);
  writeFileSync(join(tree, "svc-release.json"), JSON.stringify(manifest));
  const file = join(served, `${name}.tar.gz`);
  execFileSync("tar", ["-czf", file, "-C", tree, "svc-server", "svc-release.json"]);
  return file;
}

const listen = (server: Server) =>
  new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));

beforeAll(async () => {
  requireTools("openssl");
  work = mkdtempSync(join(tmpdir(), "svc-release-trust-"));
  served = join(work, "served");
  mkdirSync(served);
  ran = join(work, "ran");
  const platform = currentPlatform();
  packaged("good", { product: "svc-server", version: "2.7.1", platform });
  packaged("impostor", { product: "svc-agent", version: "2.7.1", platform });
  writeFileSync(join(served, "index.json"), " ".repeat(5 * 1024 * 1024) + "{}");
  plain = await startReleaseServer(served);

  const keyFile = join(work, "key.pem");
  const certFile = join(work, "cert.pem");
  const made = spawnSync("openssl", [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
    "-keyout", keyFile, "-out", certFile, "-days", "1", "-subj", "/CN=localhost",
    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
  ]);
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  // This test's https server is trusted by the agent's requests as a real release host would be.
  globalAgent.options.ca = readFileSync(certFile);
  tls = createHttpsServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (req, res) => {
    if (req.url === "/down-to-http") {
      res.writeHead(302, { location: `${plain.url}good.tar.gz` }).end();
      return;
    }
    const body = readFileSync(join(served, "good.tar.gz"));
    res.writeHead(200, { "content-length": body.length }).end(body);
  });
  tlsUrl = `https://127.0.0.1:${await listen(tls)}`;
  // An answer with no length that never ends, sent as fast as it is read.
  chunked = createHttpServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    const more = () => {
      while (res.write(" ".repeat(64 * 1024)));
    };
    res.on("drain", more);
    more();
  });
  chunkedUrl = `http://127.0.0.1:${await listen(chunked)}`;
});
afterAll(async () => {
  await plain?.close();
  for (const server of [tls, chunked]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
  rmSync(work, { recursive: true, force: true });
});

function setup() {
  const paths = agentPaths(mkdtempSync(join(work, "root-")));
  const store = createVersionStore(paths, "svc-server");
  const sink = createCollectingSink();
  const options = (spec: string, extra: Partial<PrepareUpdateOptions> = {}): PrepareUpdateOptions => ({
    product: "svc-server",
    index: undefined,
    spec,
    platform: currentPlatform(),
    store,
    downloadDir: paths.downloadDir,
    logger: createLogEngine({ clock: createManualClock(0), sink }).logger("agent.update"),
    download: { progress: "off", retryDelayMs: 0, attempts: 1 },
    ...extra,
  });
  return { store, options };
}

describe("an artifact given by URL", () => {
  it("over plain http or file is refused unless pinned by its sha256, before anything is fetched", async () => {
    const { store, options } = setup();
    const before = plain.requests.length;
    const http = await prepareUpdate(options(`${plain.url}good.tar.gz`));
    expect(http).toEqual({
      kind: "error",
      error:
        `version_control.svc-server: "${plain.url}good.tar.gz": an http URL is accepted only pinned by the artifact's sha256, ` +
        `as "${plain.url}good.tar.gz#sha256=<64 hex digits>" (or served over https)`,
    });
    const file = await prepareUpdate(options(pathToFileURL(join(served, "good.tar.gz")).href));
    expect(file.kind === "error" && file.error).toMatch(/a file URL is accepted only pinned by the artifact's sha256/);
    expect(plain.requests.length).toBe(before);
    expect(await store.installed()).toEqual([]);
  });

  it("pinned, is installed under the version its svc-release.json names, and nothing in it runs", async () => {
    const { store, options } = setup();
    const sha = shaOf(join(served, "good.tar.gz"));
    const prepared = await prepareUpdate(options(`${plain.url}good.tar.gz#sha256=${sha.toUpperCase()}`));
    expect(prepared).toMatchObject({ kind: "ready", version: "2.7.1" });
    const fromFile = setup();
    expect(await prepareUpdate(fromFile.options(`${pathToFileURL(join(served, "good.tar.gz")).href}#sha256=${sha}`))).toMatchObject({
      kind: "ready",
      version: "2.7.1",
    });
    expect(await store.installed()).toEqual(["2.7.1"]);
    expect(existsSync(ran)).toBe(false);
  });

  it("pinned, is refused when its bytes are not the ones pinned, or it is not svc-server", async () => {
    const { store, options } = setup();
    const wrong = await prepareUpdate(options(`${plain.url}good.tar.gz#sha256=${"0".repeat(64)}`));
    expect(wrong.kind === "error" && wrong.error).toMatch(/its sha256 is [0-9a-f]{64}, expected 0{64}; the download was deleted/);
    const impostor = await prepareUpdate(options(`${plain.url}impostor.tar.gz#sha256=${shaOf(join(served, "impostor.tar.gz"))}`));
    expect(impostor.kind === "error" && impostor.error).toMatch(/impostor\.tar\.gz: it is not svc-server: its svc-release\.json says product "svc-agent"; nothing was installed/);
    expect(await store.installed()).toEqual([]);
    expect(existsSync(ran)).toBe(false);
  });

  it("over https needs no pin, but a redirect from https down to http is refused", async () => {
    const { store, options } = setup();
    expect(await prepareUpdate(options(`${tlsUrl}/good.tar.gz`))).toMatchObject({ kind: "ready", version: "2.7.1" });
    const other = setup();
    const before = plain.requests.length;
    const down = await prepareUpdate(other.options(`${tlsUrl}/down-to-http`));
    expect(down.kind === "error" && down.error).toMatch(/refused the redirect from https:\/\/127\.0\.0\.1:\d+\/down-to-http to http:\/\/127\.0\.0\.1:\d+\/good\.tar\.gz: it leaves https/);
    expect(plain.requests.length).toBe(before);
    expect(await other.store.installed()).toEqual([]);
    expect(await store.installed()).toEqual(["2.7.1"]);
  });

  it("larger than the cap for an artifact of unknown size is cut off and deleted", async () => {
    const { store, options } = setup();
    const prepared = await prepareUpdate(options(`${tlsUrl}/good.tar.gz`, { download: { progress: "off", attempts: 1, maxBytes: 100 } }));
    expect(prepared.kind === "error" && prepared.error).toMatch(/the server offers \d+ bytes, more than the 100 bytes an artifact of unknown size may have; the download was deleted/);
    expect(await store.installed()).toEqual([]);
  });
});

describe("the release index", () => {
  it("is read up to 4 MiB, whether the answer says its length or not", async () => {
    await expect(fetchReleaseIndex(`${plain.url}index.json`)).rejects.toThrow(/index\.json: larger than 4194304 bytes; not read/);
    await expect(fetchReleaseIndex(`${chunkedUrl}/index.json`)).rejects.toThrow(/larger than 4194304 bytes; not read/);
    await expect(fetchReleaseIndex(pathToFileURL(join(served, "index.json")).href)).rejects.toThrow(/larger than 4194304 bytes; not read/);
  });
});
