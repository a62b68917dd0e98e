// CPU profiles and heap snapshots in the inspector's formats: -cpuprofile for a whole run, and
// the -webprofile endpoints, served to loopback clients or to requests the caller vouches for.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiagnosticsError, startCpuProfileFile, webProfileRoutes } from "../../../targets/linux/server/diagnostics/index.js";
import { createApiServer, type ApiServer, type HttpRoute } from "../../../targets/linux/server/transport/index.js";
import { sensorRoutes } from "../transport/sensor-fixture.js";

const dir = mkdtempSync(join(tmpdir(), "svc-profile-"));
let server: ApiServer;

// Makes a request look as if it came from another machine (the test only has loopback).
const asIfRemote = (route: HttpRoute): HttpRoute => ({
  ...route,
  handler(req, res) {
    const from = req.headers["x-test-peer"];
    if (typeof from === "string") Object.defineProperty(req.socket, "remoteAddress", { value: from, configurable: true });
    return route.handler(req, res);
  },
});

beforeAll(async () => {
  server = await createApiServer({
    bindAddress: "127.0.0.1:0",
    routes: sensorRoutes,
    httpRoutes: webProfileRoutes({ isAuthenticated: (req) => req.headers.authorization === "Bearer good" }).map(asIfRemote),
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function busyWork(ms: number): number {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) x += Math.sqrt(x + 1);
  return x;
}

/** One request on its own connection, so a faked peer address never leaks to another. */
function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: server.port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("-cpuprofile", () => {
  it("profiles from start() to stop() and writes a .cpuprofile JSON", async () => {
    const path = join(dir, "run.cpuprofile");
    const profile = await startCpuProfileFile(path);
    busyWork(50);
    await profile.stop();
    await profile.stop();
    const written = JSON.parse(readFileSync(path, "utf8"));
    expect(written.nodes.length).toBeGreaterThan(1);
    expect(written.samples.length).toBeGreaterThan(0);
    expect(written.endTime).toBeGreaterThan(written.startTime);
    expect(written.nodes.some((node: { callFrame: { functionName: string } }) => node.callFrame.functionName === "busyWork")).toBe(true);
  });

  it("refuses at start a file whose directory is missing", async () => {
    const path = join(dir, "missing", "run.cpuprofile");
    await expect(startCpuProfileFile(path)).rejects.toThrow(DiagnosticsError);
    await expect(startCpuProfileFile(path)).rejects.toThrow(`-cpuprofile ${JSON.stringify(path)}: the directory`);
  });
});

describe("-webprofile", () => {
  it("GET /debug/profile?seconds=N answers a CPU profile of those seconds", async () => {
    const response = await get("/debug/profile?seconds=0.3");
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json");
    expect(response.headers["content-disposition"]).toMatch(/^attachment; filename="svc-server-.*\.cpuprofile"$/);
    const profile = JSON.parse(response.body);
    expect(profile.nodes.length).toBeGreaterThan(0);
    expect(profile.endTime - profile.startTime).toBeGreaterThan(0);
  });

  it("a web profile can run while -cpuprofile runs", async () => {
    const whole = await startCpuProfileFile(join(dir, "both.cpuprofile"));
    const response = await get("/debug/profile?seconds=0.1");
    await whole.stop();
    expect(response.status).toBe(200);
    expect(JSON.parse(readFileSync(join(dir, "both.cpuprofile"), "utf8")).nodes.length).toBeGreaterThan(0);
  });

  it("refuses a bad number of seconds", async () => {
    for (const seconds of ["0", "-1", "abc", "301"]) {
      const response = await get(`/debug/profile?seconds=${seconds}`);
      expect(response.status, seconds).toBe(400);
      expect(response.body).toContain("seconds: must be a number above 0 and at most 300");
    }
  });

  it("GET /debug/heap answers a heap snapshot", async () => {
    const response = await get("/debug/heap");
    expect(response.status).toBe(200);
    expect(response.headers["content-disposition"]).toMatch(/\.heapsnapshot"$/);
    const snapshot = JSON.parse(response.body);
    expect(snapshot.snapshot.node_count).toBeGreaterThan(1000);
    expect(Array.isArray(snapshot.strings)).toBe(true);
  });

  it("GET /debug/memory answers the memory figures after a full collection", async () => {
    // Garbage the collection must free: unreachable once the answer is asked for.
    let garbage: string[] | undefined = Array.from({ length: 200_000 }, (_, i) => `garbage ${i} `.repeat(8));
    const holding = process.memoryUsage().heapUsed;
    const held = garbage.length;
    garbage = undefined;
    const response = await get("/debug/memory");
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json");
    const memory = JSON.parse(response.body);
    for (const key of ["rss", "heapTotal", "heapUsed", "external", "arrayBuffers", "mallocedMemory", "codeAndMetadata"]) {
      expect(memory[key], key).toBeGreaterThan(0);
    }
    expect(memory.heapUsed).toBeLessThanOrEqual(memory.heapTotal);
    // 200,000 strings of ~100 bytes: well over 10 MB that no longer counts.
    expect(held).toBe(200_000);
    expect(memory.heapUsed).toBeLessThan(holding - 10 * 1024 * 1024);
  });

  it("GET /debug/gc answers the collections since start, counted and timed", async () => {
    const first = await get("/debug/gc");
    expect(first.status).toBe(200);
    expect(first.headers["content-type"]).toBe("application/json");
    const before = JSON.parse(first.body) as { count: number; durationMs: number };
    expect(Object.keys(before).sort()).toEqual(["count", "durationMs"]);
    // Short-lived garbage enough for several young-generation collections.
    let kept = 0;
    for (let i = 0; i < 2_000_000; i++) kept += { i, text: `garbage ${i}` }.text.length;
    expect(kept).toBeGreaterThan(0);
    await new Promise((resolve) => setImmediate(resolve));
    const after = JSON.parse((await get("/debug/gc")).body) as { count: number; durationMs: number };
    expect(after.count).toBeGreaterThan(before.count);
    expect(after.durationMs).toBeGreaterThan(before.durationMs);
  });

  it("serves other machines only when the request is authenticated", async () => {
    for (const path of ["/debug/profile?seconds=0.1", "/debug/heap", "/debug/memory", "/debug/gc"]) {
      const refused = await get(path, { "x-test-peer": "192.0.2.7" });
      expect(refused.status, path).toBe(403);
      expect(refused.body).toContain("loopback clients only");
      expect((await get(path, { "x-test-peer": "192.0.2.7", authorization: "Bearer bad" })).status, path).toBe(403);
    }
    const vouched = await get("/debug/profile?seconds=0.1", { "x-test-peer": "192.0.2.7", authorization: "Bearer good" });
    expect(vouched.status).toBe(200);
  });
});
