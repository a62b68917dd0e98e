// What the API port's limits cost and what they save. Memory: the real svc-server
// (dist/linux/svc-server.mjs) with API keys takes 100 unauthenticated 100 MB bodies (gRPC-web
// over HTTP/1.1 with and without a declared length, gRPC over HTTP/2, Connect), 10 at a time,
// each written only as fast as the server reads it; its resident memory after them is held
// against its idle figure. Speed: GetReadings through createApiServer as it is now and as the
// previous build had it (the transport folder before limits.ts existed, taken from git and
// bundled), each in its own child process, side by side in the same run. BENCH_CALLS (20,000) and
// BENCH_BASELINE_REF (a git revision) change them.
import { create, fromJson, toBinary } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter } from "@connectrpc/connect";
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { GetReadingsRequestSchema } from "../../proto/gen/common/v1/common_pb.js";
import { SensorService } from "../../proto/gen/component/sensor/v1/sensor_pb.js";
import { createApiServer } from "../../targets/linux/server/transport/index.js";
import { distLinux } from "../../test/helpers/run-cli.js";
import { startSvcServer } from "../../test/helpers/svc-server-process.js";
import { serveUntilStdinEnds, startChildServer, stopChildServer, type ChildServer } from "./child-server.js";
import { grpcFrame, grpcWebCaller, http2Caller } from "./grpc-load.js";
import { report } from "./report.js";
import { compareSideBySide } from "./side-by-side.js";

const calls = Number(process.env.BENCH_CALLS ?? 20_000);
const callers = 32;
const root = process.cwd();
const baselineBundle = join(root, "dist/bench/baseline-transport.mjs");
const readingsPath = `/${SensorService.typeName}/GetReadings`;
const bodyBytes = 100 * 1024 * 1024;
const bodies = 100;
const atOnce = 10;
const settleMs = 5_000;

// ---- the servers (child processes) ----

function routes(router: ConnectRouter): void {
  const readings = { celsius: fromJson(ValueSchema, 21.5), humidity: fromJson(ValueSchema, 0.41) };
  router.service(SensorService, {
    getReadings: (req) => ({ readings: req.name === "temp" ? readings : {} }),
  });
}

async function serve(kind: string): Promise<void> {
  const create = kind === "baseline" ? ((await import(pathToFileURL(baselineBundle).href)) as { createApiServer: typeof createApiServer }).createApiServer : createApiServer;
  const server = await create({ bindAddress: "127.0.0.1:0", routes });
  serveUntilStdinEnds({ h2: server.port, web: server.port }, () => server.close());
}

// ---- the previous build's transport ----

/** The revision before limits.ts was added (HEAD while it is not yet committed). */
function baselineRevision(): string {
  if (process.env.BENCH_BASELINE_REF) return process.env.BENCH_BASELINE_REF;
  const added = execFileSync("git", ["log", "-1", "--format=%H", "--diff-filter=A", "--", "targets/linux/server/transport/limits.ts"], {
    cwd: root,
    encoding: "utf8",
  }).trim();
  const revision = added ? `${added}^` : "HEAD";
  return execFileSync("git", ["rev-parse", "--short=12", revision], { cwd: root, encoding: "utf8" }).trim();
}

async function bundleBaseline(revision: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "svc-bench-baseline-"));
  try {
    const archive = execFileSync("git", ["archive", revision, "targets/linux/server/transport"], { cwd: root, maxBuffer: 64 << 20 });
    execFileSync("tar", ["-x", "-C", dir], { input: archive });
    await build({
      entryPoints: [join(dir, "targets/linux/server/transport/index.ts")],
      outfile: baselineBundle,
      bundle: true,
      platform: "node",
      target: "node20",
      format: "esm",
      packages: "external",
      logLevel: "error",
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- memory under unauthenticated bodies ----

function residentMb(pid: number, field = "VmRSS"): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no ${field} for process ${pid}`);
  return Number(match[1]) / 1024;
}

/** Writes up to `total` bytes as the peer takes them, counting each chunk in `sent`, until `done()`. */
function pushBody(write: (chunk: Buffer) => boolean, onDrain: (fn: () => void) => void, done: () => boolean, total: number, sent: { bytes: number }): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024, 1);
  return new Promise((resolve) => {
    const pump = () => {
      while (sent.bytes < total && !done()) {
        sent.bytes += chunk.length;
        if (!write(chunk)) return onDrain(pump);
      }
      resolve();
    };
    pump();
  });
}

/** One unauthenticated 100 MB body in the given way; resolves with the bytes the server let in. */
function unauthenticatedBody(port: number, kind: number): Promise<number> {
  const frameHead = grpcFrame(new Uint8Array(0)).subarray(0, 5);
  frameHead.writeUInt32BE(bodyBytes - 5, 1);
  if (kind === 2) {
    return new Promise((resolve) => {
      const session = http2.connect(`http://127.0.0.1:${port}`);
      session.on("error", () => {});
      const stream = session.request({ ":method": "POST", ":path": readingsPath, "content-type": "application/grpc", te: "trailers" });
      let finished = false;
      const sent = { bytes: 0 };
      stream.on("error", () => {});
      stream.resume();
      stream.on("close", () => {
        finished = true;
        session.close();
        resolve(sent.bytes);
      });
      stream.write(frameHead);
      void pushBody((c) => stream.write(c), (fn) => stream.once("drain", fn), () => finished, bodyBytes, sent).then(() => {
        if (!finished) stream.end();
      });
    });
  }
  return new Promise((resolve) => {
    const headers: http.OutgoingHttpHeaders =
      kind === 3 ? { "content-type": "application/json", "content-length": bodyBytes } : { "content-type": "application/grpc-web+proto" };
    if (kind === 0) headers["content-length"] = bodyBytes;
    const req = http.request({ host: "127.0.0.1", port, path: readingsPath, method: "POST", headers, agent: false });
    let finished = false;
    const sent = { bytes: 0 };
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => (finished = true));
    });
    req.on("error", () => (finished = true));
    req.on("close", () => {
      finished = true;
      resolve(sent.bytes);
    });
    if (kind !== 3) req.write(frameHead);
    void pushBody((c) => req.write(c), (fn) => req.once("drain", fn), () => finished, bodyBytes, sent).then(() => {
      if (!finished) req.end();
    });
  });
}

async function memoryUnderUnauthenticatedBodies(): Promise<void> {
  if (!existsSync(join(distLinux, "svc-server.mjs"))) throw new Error("dist/linux/svc-server.mjs is missing: run node tools/build/index.mjs first");
  const svc = await startSvcServer(
    {
      auth: { handlers: [{ type: "api-key", config: { "bench-key": "bench-secret" } }] },
      components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }],
    },
    { args: ["-webprofile"] },
  );
  try {
    const pid = svc.child.pid!;
    const port = Number(new URL(svc.url).port);
    const token = await authenticate(svc.url);
    // Idle is read after one body of each kind, so code loaded on first use is not counted as the bodies' cost.
    for (let kind = 0; kind < 4; kind++) await unauthenticatedBody(port, kind);
    await sleep(settleMs);
    const idle = residentMb(pid);
    const idleCollected = await residentAfterGcMb(svc.url, token);
    let next = 0;
    let letIn = 0;
    const worker = async () => {
      for (let i = next++; i < bodies; i = next++) letIn += await unauthenticatedBody(port, i % 4);
    };
    await Promise.all(Array.from({ length: atOnce }, worker));
    await sleep(settleMs);
    const after = residentMb(pid);
    const afterCollected = await residentAfterGcMb(svc.url, token);
    report("server resident memory idle, API keys, after one body of each kind", idle, "MB");
    report(`server resident memory peak, ${bodies} unauthenticated ${bodyBytes >> 20} MB bodies`, residentMb(pid, "VmHWM"), "MB");
    report(`server resident memory after ${bodies} unauthenticated ${bodyBytes >> 20} MB bodies`, after, "MB");
    report("server resident memory after the bodies / idle", after / idle, "x");
    // Resident memory moves with garbage not yet collected (V8 keeps tens of MB between
    // collections); after a full collection on both sides, what the bodies left is what remains.
    report("server resident memory after a full collection, idle", idleCollected, "MB");
    report(`server resident memory after a full collection, after the ${bodies} bodies`, afterCollected, "MB");
    report("server resident memory after the bodies / idle, both after a full collection", afterCollected / idleCollected, "x", "<= 1.10");
    report("body bytes the server let in before answering, per body (at most socket and flow-control buffers)", letIn / bodies / 1024, "KiB");
  } finally {
    await svc.stop();
  }
}

/** A token for the bench key, through the server's AuthService over Connect's JSON protocol. */
async function authenticate(url: string): Promise<string> {
  const response = await fetch(`${url}/proto.rpc.v1.AuthService/Authenticate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ entity: "bench-key", credentials: { type: "api-key", payload: "bench-secret" } }),
  });
  if (!response.ok) throw new Error(`Authenticate answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { accessToken: string }).accessToken;
}

/** Resident memory right after a full collection (-webprofile's /debug/memory). */
async function residentAfterGcMb(url: string, token: string): Promise<number> {
  const response = await fetch(`${url}/debug/memory`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`GET /debug/memory answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { rss: number }).rss / (1024 * 1024);
}

// ---- calls per second, now and before ----

async function callsSideBySide(): Promise<void> {
  const revision = baselineRevision();
  await bundleBaseline(revision);
  const frame = grpcFrame(toBinary(GetReadingsRequestSchema, create(GetReadingsRequestSchema, { name: "temp" })));
  let now: ChildServer | undefined;
  let before: ChildServer | undefined;
  try {
    [now, before] = await Promise.all([startChildServer(["serve", "current"]), startChildServer(["serve", "baseline"])]);
    const label = `previous build (${revision.slice(0, 12)})`;
    for (const [name, open] of [
      [`limits gRPC HTTP/2, ${callers} streams,`, (port: number) => http2Caller(port, readingsPath, frame)],
      [`limits gRPC-web HTTP/1.1, ${callers} connections,`, (port: number) => grpcWebCaller(port, readingsPath, frame, callers)],
    ] as const) {
      await compareSideBySide({
        name,
        method: "GetReadings",
        subject: { label: "with limits", caller: open(now.ports.h2), pid: now.process.pid! },
        baseline: { label, caller: open(before.ports.h2), pid: before.process.pid! },
        ratioLabel: "with limits / previous build",
        ratioGoal: "0.95 to 1.05 (unchanged within noise)",
        callers,
        calls,
        rounds: 6,
        warmUpCalls: 2_000,
      });
    }
  } finally {
    await Promise.all([now, before].map((c) => (c ? stopChildServer(c.process) : undefined)));
  }
}

if (process.argv[2] === "serve") await serve(process.argv[3]!);
else {
  await memoryUnderUnauthenticatedBodies();
  await callsSideBySide();
}
