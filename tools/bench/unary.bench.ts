// What one unary call costs svc-server, side by side with grpc-go and a bare connect-node server
// under the same Node load generator: GetReadings on a sensor answering the same bytes, in
// interleaved rounds (tools/bench/rounds.ts). svc-server is the real process
// (dist/linux/svc-server.mjs) as a careful client meets it: API keys configured, every call
// carrying a valid Bearer token and the id of a heartbeated session, operations on. grpc-go is
// built here from tools/bench/go-server (tools/bench/go-server.ts; its Debian packages installed
// by tools/bench/setup-go.sh when missing). The bare connect server is this file in a child
// process ("serve"), and so is Node's own floor, node:http2 with protobuf-es and nothing else
// ("serve-raw"). Each is measured at full speed (32 streams on one HTTP/2 session) and paced at 3,500
// calls/s, over gRPC/HTTP/2 and, for the Node servers, gRPC-web/HTTP/1.1: server CPU per call
// (utime + stime from /proc), calls/s, latency p50/p99, and the Node servers' garbage collection
// per call (-webprofile's GET /debug/gc, and the same in the bare child). Last, svc-server's CPU
// per call for a sensor served by the example counter module against its built-in fake sensor,
// both paced at 1,000 calls/s (BENCH_MODULAR_PACE).
// On a Raspberry Pi the figure a user feels is CPU per call, so that is what the goals are about.
// The goals were set in microseconds on a machine where grpc-go took 19 µs a call at full speed
// and 55 µs paced; machines differ (this one has been three times slower on some days), so they
// are held as ratios to grpc-go measured side by side: 60 µs at full speed is 3.2x grpc-go's 19,
// 80 µs paced is 1.5x its 55, gRPC-web's 100 µs paced is 1.8x; and to Node's own floor, which took
// 29 µs at full speed and 53 µs paced there (2.1x and 1.5x); garbage collection at most a fifth of
// connect-node's own call path's.
// BENCH_ROUNDS (3), BENCH_WINDOW_MS (2,500 per window) and BENCH_PACE (3,500 calls/s) change the
// work; the whole takes about two minutes.
import { create, fromJson, toBinary } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { createClient, type ConnectRouter, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { GetReadingsRequestSchema, GetReadingsResponseSchema, type GetReadingsResponse } from "../../proto/gen/common/v1/common_pb.js";
import { SensorService } from "../../proto/gen/component/sensor/v1/sensor_pb.js";
import { watchGc, type GcTotals } from "../../targets/linux/server/diagnostics/index.js";
import { exampleCounter, repoRoot } from "../../test/helpers/module-fixtures.js";
import { distLinux } from "../../test/helpers/run-cli.js";
import { startSvcServer, type SvcServerProcess } from "../../test/helpers/svc-server-process.js";
import { answerOverGrpcWeb, answerOverHttp2 } from "./answer-bytes.js";
import { listenBareConnect } from "./bare-connect-server.js";
import { listenRawHttp2 } from "./raw-node-server.js";
import { serveUntilStdinEnds, startChildServer, startServerProcess, stopChildServer, type ChildServer } from "./child-server.js";
import { buildGoServer } from "./go-server.js";
import { grpcFrame, grpcWebCaller, http2Caller, type CallHeaders } from "./grpc-load.js";
import { report } from "./report.js";
import { runRounds, type Contender, type Medians } from "./rounds.js";
import { watchServer } from "./server-watch.js";
import { openSvcSession, type SvcSession } from "./svc-session.js";
import { printUnary, type UnaryMeasure } from "./unary-report.js";

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const windowMs = Number(process.env.BENCH_WINDOW_MS ?? 2_500);
const pace = Number(process.env.BENCH_PACE ?? 3_500);
const modularPace = Number(process.env.BENCH_MODULAR_PACE ?? 1_000);
const callers = 32;
const sensor = "temp";
const counterSensor = "counter1";
const readings = { celsius: 21.5, humidity: 0.41 };
const readingsPath = "/viam.component.sensor.v1.SensorService/GetReadings";
const apiKey = { id: "bench-key", key: randomBytes(24).toString("hex") };

const svcConfig = {
  auth: { handlers: [{ type: "api-key", config: { [apiKey.id]: apiKey.key, keys: [apiKey.id] } }] },
  modules: [{ type: "local", name: "counter", executable_path: exampleCounter }],
  components: [
    { name: sensor, api: "rdk:component:sensor", model: "fake", attributes: { readings } },
    { name: counterSensor, api: "rdk:component:sensor", model: "acme:demo:counter" },
  ],
};

// ---- the bare server (child process) ----

function bareRoutes(router: ConnectRouter): void {
  const values = { celsius: fromJson(ValueSchema, readings.celsius), humidity: fromJson(ValueSchema, readings.humidity) };
  router.service(SensorService, {
    getReadings(req) {
      return { readings: req.name === sensor ? values : {} };
    },
  });
}

async function serveBare(): Promise<void> {
  const gc = watchGc();
  const server = await listenBareConnect(bareRoutes, (req, res) => {
    if (req.method !== "GET" || req.url !== "/debug/gc") {
      res.writeHead(404);
      return void res.end();
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(gc.read()));
  });
  serveUntilStdinEnds(server.ports, () => server.stop());
}

// Node's floor (child process): the same answer through node:http2 and protobuf-es alone.
async function serveRaw(): Promise<void> {
  const values = { celsius: fromJson(ValueSchema, readings.celsius), humidity: fromJson(ValueSchema, readings.humidity) };
  const answer = create(GetReadingsResponseSchema, { readings: values });
  const empty: GetReadingsResponse = create(GetReadingsResponseSchema);
  const server = await listenRawHttp2(readingsPath, GetReadingsRequestSchema, GetReadingsResponseSchema, (req) => (req.name === sensor ? answer : empty));
  serveUntilStdinEnds({ h2: server.port, web: 0 }, () => server.stop());
}

// ---- the load generator ----

async function readGc(url: string, token?: string): Promise<GcTotals> {
  const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as GcTotals;
}

/** The counter sensor READY, and the module's process id (checked against what runs under it). */
async function counterModule(svc: SvcServerProcess, token: string): Promise<number> {
  const bearer: Interceptor = (next) => (req) => {
    req.header.set("authorization", `Bearer ${token}`);
    return next(req);
  };
  const watch = watchServer(svc, createGrpcTransport({ baseUrl: svc.url, interceptors: [bearer] }));
  await watch.waitForReady(`rdk:component:sensor/${counterSensor}`, 0, 20_000);
  const pid = (await watch.waitForLog(0, 'module "counter" started')).fields.pid;
  if (typeof pid !== "number" || !readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(exampleCounter)) {
    throw new Error(`the counter module's process was not found (pid ${JSON.stringify(pid)})`);
  }
  return pid;
}

interface Servers {
  svc: SvcServerProcess;
  session: SvcSession;
  modulePid: number;
  go: ChildServer<{ h2: number }>;
  bare: ChildServer;
  raw: ChildServer;
}

/** Every server answers exactly the bytes protobuf-es writes for the readings; svc refuses a call without a token. */
async function checkAnswers({ svc, session, go, bare, raw }: Servers, frame: Buffer): Promise<void> {
  const values = Object.fromEntries(Object.entries(readings).map(([k, v]) => [k, fromJson(ValueSchema, v)]));
  const expected = Buffer.from(toBinary(GetReadingsResponseSchema, create(GetReadingsResponseSchema, { readings: values })));
  const svcPort = Number(new URL(svc.url).port);
  const answers: [string, Promise<Buffer>][] = [
    ["svc-server gRPC", answerOverHttp2(svcPort, readingsPath, frame, session.headers)],
    ["svc-server gRPC-web", answerOverGrpcWeb(svcPort, readingsPath, frame, session.headers)],
    ["grpc-go gRPC", answerOverHttp2(go.ports.h2, readingsPath, frame)],
    ["bare connect-node gRPC", answerOverHttp2(bare.ports.h2, readingsPath, frame)],
    ["bare connect-node gRPC-web", answerOverGrpcWeb(bare.ports.web, readingsPath, frame)],
    ["raw node:http2 gRPC", answerOverHttp2(raw.ports.h2, readingsPath, frame)],
  ];
  for (const [who, answer] of answers) {
    const bytes = await answer;
    if (!bytes.equals(expected)) throw new Error(`${who} answers ${bytes.toString("hex")}, not ${expected.toString("hex")}`);
  }
  const refused = await answerOverHttp2(svcPort, readingsPath, frame).then(
    () => "an answer",
    (error: Error) => error.message,
  );
  if (!refused.endsWith("grpc-status 16")) throw new Error(`svc-server without a token gave ${refused}, not UNAUTHENTICATED`);
}

function measures({ svc, session, modulePid, go, bare, raw }: Servers, frame: Buffer, counterFrame: Buffer): UnaryMeasure[] {
  const svcPort = Number(new URL(svc.url).port);
  const svcGc = () => readGc(`${svc.url}/debug/gc`, session.token);
  const bareGc = () => readGc(`http://127.0.0.1:${bare.ports.web}/debug/gc`);
  const svcPid = svc.child.pid!;
  const h2 = (port: number, headers: CallHeaders = {}, body = frame) => () => http2Caller(port, readingsPath, body, headers);
  const web = (port: number, headers: CallHeaders = {}) => () => grpcWebCaller(port, readingsPath, frame, callers, headers);
  const goH2 = (): Contender => ({ label: "grpc-go", pid: go.process.pid!, open: h2(go.ports.h2) });
  const grpc = (): Contender[] => [
    { label: "svc-server", pid: svcPid, gc: svcGc, open: h2(svcPort, session.headers) },
    goH2(),
    { label: "bare connect-node", pid: bare.process.pid!, gc: bareGc, open: h2(bare.ports.h2) },
    { label: "raw node:http2", pid: raw.process.pid!, open: h2(raw.ports.h2) },
  ];
  // grpc-go serves no gRPC-web: its gRPC over HTTP/2 at the same rate is the yardstick.
  const grpcWeb = (): Contender[] => [
    { label: "svc-server", pid: svcPid, gc: svcGc, open: web(svcPort, session.headers) },
    { label: "bare connect-node", pid: bare.process.pid!, gc: bareGc, open: web(bare.ports.web) },
  ];
  const paced = `paced ${pace.toLocaleString("en")} calls/s`;
  const vsBare = ["svc-server", "bare connect-node"] as const;
  const vsRaw = ["svc-server", "raw node:http2"] as const;
  // Garbage collection per call: at most a fifth of connect-node's own call path's.
  const gcVsBare = ["svc-server", "bare connect-node", "<= 0.2", "gc"] as const;
  return [
    {
      name: `unary gRPC HTTP/2, full speed ${callers} streams`,
      callers,
      contenders: grpc(),
      ratios: [["svc-server", "grpc-go", "<= 3.2"], [...vsRaw, "<= 2.1"], vsBare, gcVsBare],
    },
    {
      name: `unary gRPC HTTP/2, ${paced}`,
      callers,
      perSecond: pace,
      contenders: grpc(),
      ratios: [["svc-server", "grpc-go", "<= 1.5"], [...vsRaw, "<= 1.5"], vsBare, gcVsBare],
    },
    {
      name: `unary gRPC-web HTTP/1.1, full speed ${callers} connections`,
      callers,
      contenders: grpcWeb(),
      ratios: [vsBare, gcVsBare],
    },
    {
      name: `unary gRPC-web HTTP/1.1, ${paced}`,
      callers,
      perSecond: pace,
      contenders: [...grpcWeb(), { ...goH2(), label: "grpc-go over gRPC" }],
      ratios: [["svc-server", "grpc-go over gRPC", "<= 1.8"], vsBare, gcVsBare],
    },
    // Side by side at one rate the module keeps up with: at full speed the module sets the pace,
    // and a server waiting on it would be measured at a rate the built-in one never runs at.
    {
      name: `unary svc-server gRPC HTTP/2, paced ${modularPace.toLocaleString("en")} calls/s`,
      callers,
      perSecond: modularPace,
      contenders: [
        { label: "modular counter", pid: svcPid, helperPid: modulePid, gc: svcGc, open: h2(svcPort, session.headers, counterFrame) },
        { label: "built-in fake", pid: svcPid, gc: svcGc, open: h2(svcPort, session.headers) },
      ],
      ratios: [["modular counter", "built-in fake", "<= 1.5"]],
    },
  ];
}

async function startServers(): Promise<Servers> {
  // Built first: a build that fails leaves nothing running.
  const goBinary = buildGoServer(repoRoot);
  const readingsArg = JSON.stringify(readings);
  const started = await Promise.allSettled([
    startSvcServer(svcConfig, { args: ["-webprofile"] }),
    startServerProcess<{ h2: number }>(goBinary, ["-sensor", sensor, "-readings", readingsArg]),
    startChildServer(["serve"]),
    startChildServer(["serve-raw"]),
  ] as const);
  const [svc, go, bare, raw] = started.map((s) => (s.status === "fulfilled" ? s.value : undefined)) as [
    SvcServerProcess | undefined,
    ChildServer<{ h2: number }> | undefined,
    ChildServer | undefined,
    ChildServer | undefined,
  ];
  const stopChildren = () => Promise.all([go, bare, raw].map((child) => child && stopChildServer(child.process)));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed || !svc || !go || !bare || !raw) {
    await Promise.all([svc?.stop(), stopChildren()]);
    throw failed?.reason ?? new Error("a server did not start");
  }
  let session: SvcSession | undefined;
  try {
    session = await openSvcSession(svc.url, apiKey);
    return { svc, session, modulePid: await counterModule(svc, session.token), go, bare, raw };
  } catch (error) {
    session?.close();
    await Promise.all([svc.stop(), stopChildren()]);
    throw error;
  }
}

async function drive(): Promise<void> {
  if (!existsSync(join(distLinux, "svc-server.mjs")) || !existsSync(exampleCounter)) {
    throw new Error("dist/linux/svc-server.mjs or dist/modules/counter.mjs is missing: run node tools/build/index.mjs first");
  }
  const began = performance.now();
  const servers = await startServers();
  const { svc, session, go, bare, raw } = servers;
  let measured: UnaryMeasure[];
  let medians: Medians;
  try {
    const frameOf = (name: string) => grpcFrame(toBinary(GetReadingsRequestSchema, create(GetReadingsRequestSchema, { name })));
    const frame = frameOf(sensor);
    await checkAnswers(servers, frame);
    measured = measures(servers, frame, frameOf(counterSensor));
    medians = await runRounds(measured, {
      rounds,
      windowMs,
      warmUpMs: 1_000,
      progress: (text) => console.error(`unary bench: ${text}`),
    });
    session.check();
  } finally {
    session.close();
    const code = await svc.stop();
    await Promise.all([stopChildServer(go.process), stopChildServer(bare.process), stopChildServer(raw.process)]);
    if (code !== 0) console.error(`svc-server exited with ${code} when stopped; stderr:\n${svc.stderr().slice(-2_000)}`);
  }
  printUnary(medians, measured);
  report("unary bench duration", (performance.now() - began) / 1000, "s", "< 300");
}

if (process.argv[2] === "serve") await serveBare();
else if (process.argv[2] === "serve-raw") await serveRaw();
else await drive();
