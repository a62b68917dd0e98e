// FTDC's cost on the real svc-server: server CPU per GetReadings call (gRPC over HTTP/2, paced)
// with -ftdc recording once a second against the same server with -ftdc=false, two processes
// side by side in interleaved rounds (who goes first turns each round). Each round gives a ratio
// on / off; the median ratio is printed with the spread of the rounds, so a figure inside the
// machine's own noise reads as such. BENCH_ROUNDS (6), BENCH_WINDOW_MS (4,000 per window) and
// BENCH_FTDC_PACE (1,000 calls/s) change the work.
import { create, toBinary } from "@bufbuild/protobuf";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetReadingsRequestSchema } from "../../proto/gen/common/v1/common_pb.js";
import { startSvcServer, type SvcServerProcess } from "../../test/helpers/svc-server-process.js";
import { grpcFrame, http2Caller } from "./grpc-load.js";
import { runWindow, type Window } from "./load-window.js";
import { report } from "./report.js";
import { medianOf } from "./side-by-side.js";

const rounds = Number(process.env.BENCH_ROUNDS ?? 6);
const windowMs = Number(process.env.BENCH_WINDOW_MS ?? 4_000);
const pace = Number(process.env.BENCH_FTDC_PACE ?? 1_000);
const callers = 32;
const readingsPath = "/viam.component.sensor.v1.SensorService/GetReadings";
const config = { network: { bind_address: "127.0.0.1:0" }, components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }] };
const frame = grpcFrame(toBinary(GetReadingsRequestSchema, create(GetReadingsRequestSchema, { name: "temp" })));

interface Side {
  label: string;
  svc: SvcServerProcess;
  windows: Window[];
}

async function window(side: Side, ms: number): Promise<Window> {
  const caller = http2Caller(Number(new URL(side.svc.url).port), readingsPath, frame);
  try {
    await Promise.all(Array.from({ length: callers }, () => caller.call()));
    return await runWindow(caller, { ms, callers, perSecond: pace }, { pid: side.svc.child.pid! });
  } finally {
    caller.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), "svc-ftdc-bench-"));
const sides: Side[] = [];
try {
  sides.push({ label: "-ftdc", svc: await startSvcServer(config, { args: ["-ftdc-dir", join(dir, "ftdc")] }), windows: [] });
  sides.push({ label: "-ftdc=false", svc: await startSvcServer(config, { args: ["-ftdc=false"] }), windows: [] });
  for (const side of sides) await window(side, 2_000);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) side.windows.push(await window(side, windowMs));
  }
  const name = `ftdc: GetReadings paced ${pace.toLocaleString("en")} calls/s`;
  for (const side of sides) {
    report(`${name}, server CPU per call, ${side.label}`, medianOf(side.windows.map((w) => w.cpuPerCall)), "µs");
    report(`${name}, calls/s, ${side.label}`, medianOf(side.windows.map((w) => w.perSecond)), "calls/s");
  }
  const ratios = sides[0]!.windows.map((on, i) => on.cpuPerCall / sides[1]!.windows[i]!.cpuPerCall);
  report(`${name}, server CPU per call, -ftdc / -ftdc=false, median of ${rounds} rounds`, medianOf(ratios), "x", "<= 1.02");
  report(`${name}, spread of the rounds' ratios (max - min)`, Math.max(...ratios) - Math.min(...ratios), "x");
  console.log(`${name}, the rounds' ratios: ${ratios.map((r) => r.toFixed(3)).join(" ")}`);
} finally {
  for (const side of sides) await side.svc.stop();
  rmSync(dir, { recursive: true, force: true });
}
