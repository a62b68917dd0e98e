// Downloads against a real HTTP server on loopback: resumed after a cut connection, started over
// when the server ignores Range, and never handed over unverified (bad sha256, short file).
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCollectingSink, createLogEngine, createManualClock } from "../../../core/index.js";
import { downloadArtifact, fetchReleaseIndex, ReleaseError } from "../../../targets/linux/agent/releases/index.js";
import { startReleaseServer, type ReleaseServer } from "../../helpers/release-server.js";

const payload = randomBytes(3 * 1024 * 1024 + 17);
const payloadSha = createHash("sha256").update(payload).digest("hex");

let served: string;
let server: ReleaseServer;
let cacheDir: string;

function logging() {
  const sink = createCollectingSink();
  const logger = createLogEngine({ clock: createManualClock(0), sink }).logger("agent.releases");
  return { sink, logger, messages: () => sink.entries.map((e) => e.message) };
}

const fast = { progress: "log" as const, retryDelayMs: 0, attempts: 5 };

beforeAll(async () => {
  served = mkdtempSync(join(tmpdir(), "svc-served-"));
  writeFileSync(join(served, "artifact.tar.gz"), payload);
  writeFileSync(join(served, "short.tar.gz"), payload.subarray(0, payload.length - 1000));
  server = await startReleaseServer(served);
});
afterAll(async () => {
  await server.close();
  rmSync(served, { recursive: true, force: true });
});
beforeEach(() => {
  cacheDir = mkdtempSync(join(tmpdir(), "svc-cache-"));
  server.behave({});
  server.requests.length = 0;
});
afterEach(() => rmSync(cacheDir, { recursive: true, force: true }));

const url = () => `${server.url}artifact.tar.gz`;

describe("downloading an artifact", () => {
  it("verifies it and returns it from the cache, with progress in the log every tenth", async () => {
    const { logger, messages } = logging();
    const got = await downloadArtifact({ ...fast, url: url(), sha256: payloadSha, size: payload.length, cacheDir, logger });
    expect(got.sha256).toBe(payloadSha);
    expect(got.bytes).toBe(payload.length);
    expect(readFileSync(got.file).equals(payload)).toBe(true);
    const progress = messages().filter((m) => m.startsWith("downloading artifact.tar.gz"));
    expect(progress.length).toBeGreaterThanOrEqual(9);
    expect(progress.length).toBeLessThanOrEqual(11);
    expect(messages()).toContain("downloaded artifact.tar.gz (3.0 MB)");
    expect(readdirSync(cacheDir)).toEqual([got.file.split("/").pop()]);
  });

  it("resumes with a Range request after the server cuts the connection mid-body", async () => {
    server.behave({ cutAfterBytes: 1024 * 1024, cutTimes: 2 });
    const { logger, messages } = logging();
    const got = await downloadArtifact({ ...fast, url: url(), sha256: payloadSha, size: payload.length, cacheDir, logger });
    expect(readFileSync(got.file).equals(payload)).toBe(true);
    expect(server.requests.map((r) => r.range)).toEqual([undefined, "bytes=1048576-", "bytes=2097152-"]);
    expect(messages().filter((m) => m.includes("interrupted"))).toHaveLength(2);
  });

  it("keeps what arrived when it gives up, and a later call continues from there", async () => {
    server.behave({ cutAfterBytes: 1024 * 1024, cutTimes: 1 });
    const { logger } = logging();
    await expect(downloadArtifact({ ...fast, attempts: 1, url: url(), sha256: payloadSha, cacheDir, logger })).rejects.toThrow(/gave up after 1 attempts; 1048576 bytes are kept/);
    expect(readdirSync(cacheDir).filter((f) => f.endsWith(".partial"))).toHaveLength(1);
    const got = await downloadArtifact({ ...fast, url: url(), sha256: payloadSha, cacheDir, logger });
    expect(readFileSync(got.file).equals(payload)).toBe(true);
    expect(server.requests.at(-1)?.range).toBe("bytes=1048576-");
    expect(readdirSync(cacheDir).filter((f) => f.endsWith(".partial"))).toEqual([]);
  });

  it("starts over when the server does not do Range", async () => {
    server.behave({ noRange: true, cutAfterBytes: 1024 * 1024, cutTimes: 1 });
    const { logger, messages } = logging();
    const got = await downloadArtifact({ ...fast, url: url(), sha256: payloadSha, cacheDir, logger });
    expect(readFileSync(got.file).equals(payload)).toBe(true);
    expect(messages().some((m) => m.includes("does not resume downloads; starting over"))).toBe(true);
  });

  it("deletes a download whose sha256 is wrong and never returns it", async () => {
    const { logger } = logging();
    const wrong = "0".repeat(64);
    const attempt = downloadArtifact({ ...fast, url: url(), sha256: wrong, cacheDir, logger });
    await expect(attempt).rejects.toThrow(ReleaseError);
    await expect(attempt).rejects.toThrow(`its sha256 is ${payloadSha}, expected ${wrong}; the download was deleted`);
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  it("deletes a truncated artifact (short of its size) and never returns it", async () => {
    const { logger } = logging();
    await expect(
      downloadArtifact({ ...fast, url: `${server.url}short.tar.gz`, sha256: payloadSha, size: payload.length, cacheDir, logger }),
    ).rejects.toThrow(`got ${payload.length - 1000} bytes where ${payload.length} were expected; the download was deleted`);
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  it("says which URL and which HTTP status when the server refuses", async () => {
    const { logger } = logging();
    await expect(downloadArtifact({ ...fast, url: `${server.url}missing.tar.gz`, cacheDir, logger })).rejects.toThrow(
      `download ${server.url}missing.tar.gz: the server answered HTTP 404 Not Found`,
    );
  });

  it("copies file URLs, verified the same way", async () => {
    const { logger } = logging();
    const fileUrl = pathToFileURL(join(served, "artifact.tar.gz")).href;
    const got = await downloadArtifact({ ...fast, url: fileUrl, sha256: payloadSha, cacheDir, logger });
    expect(readFileSync(got.file).equals(payload)).toBe(true);
    await expect(downloadArtifact({ ...fast, url: fileUrl, sha256: "1".repeat(64), cacheDir, logger })).rejects.toThrow(/the download was deleted/);
    expect(existsSync(got.file)).toBe(true);
  });

  it("draws a progress bar on a terminal", async () => {
    const { logger, messages } = logging();
    let drawn = "";
    const terminal = Object.assign(new (await import("node:stream")).Writable({ write: (c, _e, cb) => ((drawn += String(c)), cb()) }), { isTTY: true, columns: 100 });
    await downloadArtifact({ ...fast, progress: "auto", terminal, url: url(), sha256: payloadSha, cacheDir, logger });
    expect(drawn).toMatch(/\rartifact\.tar\.gz \[#+ *\] \d+ %/);
    expect(drawn).toContain("100 %");
    expect(messages().filter((m) => m.startsWith("downloading artifact"))).toEqual([]);
  });
});

describe("fetching the release index", () => {
  it("reads it over http and from a file, with relative URLs resolved", async () => {
    const index = { "svc-server": { channels: { stable: "1.0.0" }, versions: { "1.0.0": { "linux/amd64": { url: "artifact.tar.gz", sha256: payloadSha } } } } };
    writeFileSync(join(served, "index.json"), JSON.stringify(index));
    const overHttp = await fetchReleaseIndex(`${server.url}index.json`);
    expect(overHttp.index["svc-server"]?.versions["1.0.0"]?.["linux/amd64"]?.url).toBe(`${server.url}artifact.tar.gz`);
    const fromFile = await fetchReleaseIndex(pathToFileURL(join(served, "index.json")).href);
    expect(fromFile.index["svc-server"]?.versions["1.0.0"]?.["linux/amd64"]?.url).toBe(pathToFileURL(join(served, "artifact.tar.gz")).href);
  });

  it("says where the JSON breaks, which status the server gave, or that nobody answered", async () => {
    writeFileSync(join(served, "broken.json"), '{\n  "svc-server": {\n    "channels": { stable: "1.0.0" }\n  }\n}\n');
    await expect(fetchReleaseIndex(`${server.url}broken.json`)).rejects.toThrow(`release index ${server.url}broken.json: not valid JSON: unexpected "s" at line 3, column 19`);
    writeFileSync(join(served, "cut.json"), '{"svc-server": {');
    await expect(fetchReleaseIndex(`${server.url}cut.json`)).rejects.toThrow("not valid JSON: unexpected end of input");
    server.behave({ status: 503 });
    await expect(fetchReleaseIndex(`${server.url}index.json`)).rejects.toThrow(`release index ${server.url}index.json: the server answered HTTP 503 Service Unavailable`);
    await expect(fetchReleaseIndex("http://127.0.0.1:1/index.json", { timeoutMs: 5000 })).rejects.toThrow(/release index http:\/\/127\.0\.0\.1:1\/index\.json: connect ECONNREFUSED/);
    await expect(fetchReleaseIndex("file:///nonexistent/index.json")).rejects.toThrow(/release index file:\/\/\/nonexistent\/index\.json: cannot read/);
  });
});
