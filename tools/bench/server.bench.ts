// The real svc-server process (dist/linux/svc-server.mjs) on loopback, measured from outside:
// GetReadings on a fake sensor over gRPC HTTP/2 and gRPC-web HTTP/1.1, side by side with a bare
// connect-node server answering the same response (every svc call pays its operation, auth check
// and telemetry-off path); start-up with 1,000 fake resources in 10 levels; a configuration edit
// until the API shows it; resident memory idle with 100 resources and after 1,000,000 calls, and
// the heap after a full garbage collection at 100,000 and at 1,000,000 calls (the leak figure).
// The bare server runs in a child process (this file, started with "serve"). The million calls
// are bounded by the server's CPU per call: about six minutes on two shared cores. BENCH_CALLS
// (20,000 per contender and protocol) and BENCH_MEMORY_CALLS (1,000,000) change the load;
// BENCH_HEAP_SNAPSHOTS=DIR also saves the server's heap snapshots where the heap is read.
import { create, equals, fromJson, toBinary } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { createClient, type ConnectRouter, type Transport } from "@connectrpc/connect";
import { createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { createWriteStream, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { setTimeout as sleep } from "node:timers/promises";
import { GetReadingsRequestSchema, GetReadingsResponseSchema, type GetReadingsResponse } from "../../proto/gen/common/v1/common_pb.js";
import { SensorService } from "../../proto/gen/component/sensor/v1/sensor_pb.js";
import { GetMachineStatusResponse_State, ResourceStatus_State, RobotService } from "../../proto/gen/robot/v1/robot_pb.js";
import type { MemoryAfterGc } from "../../targets/linux/server/diagnostics/index.js";
import { distLinux } from "../../test/helpers/run-cli.js";
import { startSvcServer, type SvcServerProcess } from "../../test/helpers/svc-server-process.js";
import { listenBareConnect } from "./bare-connect-server.js";
import { serveUntilStdinEnds, startChildServer, stopChildServer } from "./child-server.js";
import { grpcFrame, grpcWebCaller, http2Caller, runLoad, spreadCaller } from "./grpc-load.js";
import { layeredFakeConfig, withAttributes, type FakeComponent } from "./layered-fake-config.js";
import { report } from "./report.js";
import { compareSideBySide, medianOf } from "./side-by-side.js";

const callers = 32;
const sideBySideCalls = Number(process.env.BENCH_CALLS ?? 20_000);
const memoryCalls = Number(process.env.BENCH_MEMORY_CALLS ?? 1_000_000);
// A folder to keep the server's heap snapshots in, taken where the heap after GC is read. Taking
// one leaves its native working memory with the allocator (about 70 MB resident, measured), so
// resident figures read after the first snapshot are not comparable with a run without.
const snapshotDir = process.env.BENCH_HEAP_SNAPSHOTS;
const readings = { celsius: 21.5, humidity: 0.41 };
const readingsPath = "/viam.component.sensor.v1.SensorService/GetReadings";
const settleMs = 2_000;
// Where the heap after GC is first read: past start-up, the side-by-side runs and V8's tiering.
const heapCheckpointCalls = 100_000;
const mib = 1024 * 1024;

// ---- the bare server (child process) ----

function bareRoutes(sensor: string) {
  const values = { celsius: fromJson(ValueSchema, readings.celsius), humidity: fromJson(ValueSchema, readings.humidity) };
  return (router: ConnectRouter) => {
    router.service(SensorService, {
      getReadings(req) {
        return { readings: req.name === sensor ? values : {} };
      },
    });
  };
}

async function serveBare(sensor: string): Promise<void> {
  const server = await listenBareConnect(bareRoutes(sensor));
  serveUntilStdinEnds(server.ports, () => server.stop());
}

// ---- probes of the running server ----

/** Resident memory of a process in MiB, from /proc/PID/status. */
function residentMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) / 1024;
}

/** Polls GetMachineStatus until RUNNING, then insists every configured resource is READY. */
async function waitForRunning(transport: Transport, names: readonly string[], pollMs: number): Promise<void> {
  const robot = createClient(RobotService, transport);
  const until = performance.now() + 30_000;
  for (;;) {
    const status = await robot.getMachineStatus({});
    if (status.state === GetMachineStatusResponse_State.RUNNING) {
      const ready = new Set(status.resources.filter((r) => r.state === ResourceStatus_State.READY).map((r) => r.name?.name));
      const missing = names.filter((name) => !ready.has(name));
      if (missing.length) throw new Error(`RUNNING with ${missing.length} resources not READY, e.g. ${missing.slice(0, 3).join(", ")}`);
      return;
    }
    if (performance.now() > until) throw new Error("the machine did not reach RUNNING in 30 s");
    await sleep(pollMs);
  }
}

function transports(svcUrl: string) {
  return { h2: createGrpcTransport({ baseUrl: svcUrl }), web: createGrpcWebTransport({ baseUrl: svcUrl, httpVersion: "1.1" }) };
}

// ---- 1 and 4: calls side by side, then resident memory over 1,000,000 calls ----

async function callsAndMemory(svc: SvcServerProcess, sensor: string): Promise<void> {
  const pid = svc.child.pid!;
  const port = Number(new URL(svc.url).port);
  const frame = grpcFrame(toBinary(GetReadingsRequestSchema, create(GetReadingsRequestSchema, { name: sensor })));

  await sleep(settleMs);
  const idle = residentMb(pid);
  report("server resident memory idle, 100 resources", idle, "MB", "< 80");

  let served = 0;
  const bare = await startChildServer(["serve", sensor]);
  const barePid = bare.process.pid!;
  try {
    // connect's own clients first: both servers must answer the same response on both protocols.
    const svcClients = transports(svc.url);
    const bareClients = {
      h2: createGrpcTransport({ baseUrl: `http://127.0.0.1:${bare.ports.h2}` }),
      web: createGrpcWebTransport({ baseUrl: `http://127.0.0.1:${bare.ports.web}`, httpVersion: "1.1" }),
    };
    for (const protocol of ["h2", "web"] as const) {
      const ours = await createClient(SensorService, svcClients[protocol]).getReadings({ name: sensor });
      const theirs = await createClient(SensorService, bareClients[protocol]).getReadings({ name: sensor });
      served++;
      if (ours.readings.celsius?.kind.value !== readings.celsius || !equals(GetReadingsResponseSchema, ours, theirs)) {
        throw new Error(`svc-server and the bare server answer differently over ${protocol}: ${describe(ours)} / ${describe(theirs)}`);
      }
    }
    const bareIdle = residentMb(barePid);
    const common = { method: "GetReadings", ratioLabel: "svc-server / bare", ratioGoal: ">= 0.8", callers, calls: sideBySideCalls, rounds: 6, warmUpCalls: 2_000 };
    const h2 = await compareSideBySide({
      ...common,
      name: `server gRPC HTTP/2, ${callers} streams,`,
      subject: { label: "svc-server", caller: http2Caller(port, readingsPath, frame), pid },
      baseline: { label: "bare connect-node", caller: http2Caller(bare.ports.h2, readingsPath, frame), pid: barePid },
    });
    const web = await compareSideBySide({
      ...common,
      name: `server gRPC-web HTTP/1.1, ${callers} connections,`,
      subject: { label: "svc-server", caller: grpcWebCaller(port, readingsPath, frame, callers), pid },
      baseline: { label: "bare connect-node", caller: grpcWebCaller(bare.ports.web, readingsPath, frame, callers), pid: barePid },
    });
    served += h2.callsEach + web.callsEach;
    // The same Node and connect under the same calls, for scale: how much of svc-server's growth is theirs.
    report("bare connect-node resident memory idle", bareIdle, "MB");
    report(`bare connect-node resident memory after ${(h2.callsEach + web.callsEach).toLocaleString("en")} calls`, residentMb(barePid), "MB");
  } finally {
    await stopChildServer(bare.process);
  }

  // The rest of the million on the cheapest client path: pre-encoded frames, 64 streams over two
  // HTTP/2 sessions. The server's CPU per call bounds the rate, so this part takes minutes.
  // Resident memory alone cannot tell a leak from garbage not yet collected (the young generation
  // and old-space garbage between major collections come and go in tens of MB), so at 100,000
  // calls and at the end the server also collects all garbage and reports its heap: a leak grows
  // the heap after GC with the calls; the allocator and the collector's own pacing do not.
  const warm = residentMb(pid);
  const checkpoint = Math.max(served, Math.min(heapCheckpointCalls, memoryCalls));
  console.error(`server bench: ${Math.max(0, memoryCalls - served).toLocaleString("en")} more GetReadings calls for the memory figures`);
  const bulk = spreadCaller([http2Caller(port, readingsPath, frame), http2Caller(port, readingsPath, frame)]);
  const rates: number[] = [];
  const memory: MemoryReading[] = [];
  const fromWarm = served;
  try {
    for (const until of [checkpoint, Math.max(checkpoint, memoryCalls)]) {
      if (until > served) rates.push((await runLoad(bulk, until - served, 64, pid)).perSecond);
      served = until;
      await sleep(settleMs);
      memory.push(await readMemory(svc, pid, served));
    }
  } finally {
    bulk.close();
  }
  report("server GetReadings, bulk load, HTTP/2, 2 sessions x 32 streams", medianOf(rates), "calls/s");
  const [early, late] = memory as [MemoryReading, MemoryReading];
  const total = served.toLocaleString("en");
  const growth = (from: number, to: number) => ((to - from) / from) * 100;
  for (const at of memory) {
    const calls = at.calls.toLocaleString("en");
    report(`server heap after GC at ${calls} calls`, at.heapAfterGc, "MB");
    report(`server resident memory at ${calls} calls`, at.resident, "MB");
    // What the resident figure mostly moves with: the heap V8 keeps for garbage between collections.
    report(`server heap size before GC at ${calls} calls`, at.heapTotalBeforeGc, "MB");
    report(`server resident memory after GC at ${calls} calls`, at.residentAfterGc, "MB");
  }
  const span = `from ${early.calls.toLocaleString("en")} to ${total} calls`;
  report(`server heap growth after GC ${span}`, growth(early.heapAfterGc, late.heapAfterGc), "%", "< 5");
  report(`server resident memory growth ${span}`, growth(early.resident, late.resident), "%");
  report(`server resident memory growth over ${total} calls, from idle (garbage included; the heap after GC is the leak figure)`, growth(idle, late.resident), "%");
  report(`server resident memory growth over the last ${(served - fromWarm).toLocaleString("en")} calls, from warm`, growth(warm, late.resident), "%");
}

interface MemoryReading {
  calls: number;
  /** MiB, as the load left it. */
  resident: number;
  /** MiB: the heap V8 held (used or not) just before the collection. */
  heapTotalBeforeGc: number;
  /** MiB, right after the server collected all garbage. */
  heapAfterGc: number;
  residentAfterGc: number;
}

/** Resident memory as it is, then the heap and resident memory after a full collection (-webprofile's /debug/memory). */
async function readMemory(svc: SvcServerProcess, pid: number, calls: number): Promise<MemoryReading> {
  const resident = residentMb(pid);
  const response = await fetch(`${svc.url}/debug/memory`);
  if (!response.ok) throw new Error(`GET /debug/memory answered ${response.status}: ${await response.text()}`);
  const collected = (await response.json()) as MemoryAfterGc;
  if (snapshotDir) await saveHeapSnapshot(svc, join(snapshotDir, `svc-server-${calls}-calls.heapsnapshot`));
  return {
    calls,
    resident,
    heapTotalBeforeGc: collected.beforeGc.heapTotal / mib,
    heapAfterGc: collected.heapUsed / mib,
    residentAfterGc: collected.rss / mib,
  };
}

/** -webprofile's /debug/heap into a file, for comparing what the heap holds by constructor. */
async function saveHeapSnapshot(svc: SvcServerProcess, file: string): Promise<void> {
  const response = await fetch(`${svc.url}/debug/heap`);
  if (!response.ok || !response.body) throw new Error(`GET /debug/heap answered ${response.status}`);
  await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(file));
  console.error(`server bench: heap snapshot in ${file}`);
}

function describe(response: GetReadingsResponse): string {
  return JSON.stringify(Object.fromEntries(Object.entries(response.readings).map(([k, v]) => [k, v.kind.value])));
}

// ---- 3: a configuration edit until GetReadings shows it ----

async function configEdits(svc: SvcServerProcess, config: { components: FakeComponent[] }, sensor: string): Promise<void> {
  const client = createClient(SensorService, transports(svc.url).h2);
  const times: number[] = [];
  let failedPolls = 0;
  for (let edit = 1; edit <= 5; edit++) {
    const began = performance.now();
    svc.writeConfig(withAttributes(config, sensor, { readings: { ...readings, edit } }));
    for (;;) {
      const answer = await client.getReadings({ name: sensor }).catch(() => undefined);
      if (!answer) failedPolls++;
      if (answer?.readings.edit?.kind.value === edit) break;
      if (performance.now() - began > 10_000) throw new Error(`edit ${edit} was not seen through the API in 10 s`);
      await sleep(5);
    }
    times.push(performance.now() - began);
    // Far enough apart that the file watcher's debounce never merges two edits.
    await sleep(300);
  }
  report("server config edit to change seen by GetReadings, 100 resources, median of 5", medianOf(times), "ms", "< 200");
  if (failedPolls) report("server GetReadings failing while the edit was applied", failedPolls, "calls");
}

// ---- 2: start-up with 1,000 resources ----

async function startUp(): Promise<void> {
  const { config, names } = layeredFakeConfig(1_000, 10);
  const firstCall: number[] = [];
  const running: number[] = [];
  for (let run = 0; run < 3; run++) {
    // From just before the configuration file is written and the process spawned.
    const began = performance.now();
    const svc = await startSvcServer(config, { startTimeoutMs: 30_000 });
    try {
      const { h2 } = transports(svc.url);
      await createClient(RobotService, h2).getVersion({});
      firstCall.push(performance.now() - began);
      await waitForRunning(h2, names, 10);
      running.push(performance.now() - began);
    } finally {
      await stopServer(svc);
    }
  }
  report("server start-up to first served call, 1,000 resources in 10 levels, median of 3", medianOf(firstCall), "ms");
  report("server start-up to RUNNING, 1,000 resources in 10 levels, median of 3", medianOf(running), "ms", "< 1500");
}

async function stopServer(svc: SvcServerProcess): Promise<void> {
  const code = await svc.stop();
  if (code !== 0) console.error(`svc-server exited with ${code} when stopped; stderr:\n${svc.stderr().slice(-2_000)}`);
}

async function drive(): Promise<void> {
  if (!existsSync(join(distLinux, "svc-server.mjs"))) {
    throw new Error("dist/linux/svc-server.mjs is missing: run node tools/build/index.mjs --only linux first");
  }
  const layered = layeredFakeConfig(100, 10);
  const sensor = layered.topSensor;
  const config = withAttributes(layered.config, sensor, { readings });
  // -webprofile for /debug/memory, the heap after a full collection.
  const svc = await startSvcServer(config, { args: ["-webprofile"] });
  try {
    await waitForRunning(transports(svc.url).h2, layered.names, 50);
    await callsAndMemory(svc, sensor);
    await configEdits(svc, config, sensor);
  } finally {
    await stopServer(svc);
  }
  await startUp();
}

if (process.argv[2] === "serve") await serveBare(process.argv[3]!);
else await drive();
