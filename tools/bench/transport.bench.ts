// GetReadings through svc's API port against a bare connect-node server, side by side: the same
// handler served by createApiServer (one port, preface sniffing, CORS, routes, connection
// tracking) and by `http2.createServer` / `http.createServer` around connectNodeAdapter. Each
// server runs in its own child process (this file, started with "serve"); this process is the
// load generator. 32 callers share one HTTP/2 session for gRPC, and a keep-alive agent of 32
// sockets for gRPC-web. BENCH_CALLS (20,000) and BENCH_CALLERS (32) change the load.
import { create, fromJson, toBinary } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { createClient, type ConnectRouter, type Transport } from "@connectrpc/connect";
import { connectNodeAdapter, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { GetReadingsRequestSchema } from "../../proto/gen/common/v1/common_pb.js";
import { SensorService } from "../../proto/gen/component/sensor/v1/sensor_pb.js";
import { createApiServer } from "../../targets/linux/server/transport/index.js";
import { report } from "./report.js";

const callers = Number(process.env.BENCH_CALLERS ?? 32);
const calls = Number(process.env.BENCH_CALLS ?? 20_000);
const warmUpCalls = 2_000;
const rounds = 6;

type Kind = "svc" | "bare";
const kinds: readonly Kind[] = ["svc", "bare"];
const label: Record<Kind, string> = { svc: "svc API port", bare: "bare connect-node" };

interface Ports {
  h2: number;
  web: number;
}

function routes(router: ConnectRouter): void {
  const readings = { celsius: fromJson(ValueSchema, 21.5), humidity: fromJson(ValueSchema, 0.41) };
  router.service(SensorService, {
    getReadings(req) {
      return { readings: req.name === "temp" ? readings : {} };
    },
  });
}

// ---- the servers (child processes) ----

async function serve(kind: Kind): Promise<void> {
  let ports: Ports;
  let stop: () => Promise<unknown>;
  if (kind === "svc") {
    const server = await createApiServer({ bindAddress: "127.0.0.1:0", routes });
    ports = { h2: server.port, web: server.port };
    stop = () => server.close();
  } else {
    const handler = connectNodeAdapter({ routes });
    const servers = [http2.createServer(handler), http.createServer(handler)] as const;
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve))));
    const [h2, web] = servers.map((s) => (s.address() as AddressInfo).port);
    ports = { h2: h2!, web: web! };
    stop = () => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
  process.stdout.write(`${JSON.stringify(ports)}\n`);
  // The parent ends stdin when it is done: stop, or exit anyway soon after.
  process.stdin.resume();
  process.stdin.on("end", () => {
    setTimeout(() => process.exit(0), 2_000).unref();
    void stop().then(() => process.exit(0));
  });
}

interface Child {
  process: ChildProcess;
  ports: Ports;
}

function startServer(kind: Kind): Promise<Child> {
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, "serve", kind], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${kind} server exited (${code}) before it listened`)));
    createInterface({ input: child.stdout! }).once("line", (line) => resolve({ process: child, ports: JSON.parse(line) }));
  });
}

function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.stdin!.end();
  });
}

/** CPU seconds a process has used, from /proc (user + system, in clock ticks of 10 ms). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

// ---- the load generator ----

// It shares two cores with the server, so its calls are lean: the request frame is encoded once
// and each answer is checked only for its status. connect's own client makes one call to each
// server first, to be sure both answer what a real client decodes.
const path = "/viam.component.sensor.v1.SensorService/GetReadings";
const request = toBinary(GetReadingsRequestSchema, create(GetReadingsRequestSchema, { name: "temp" }));
const requestFrame = Buffer.alloc(5 + request.length);
requestFrame.writeUInt32BE(request.length, 1);
requestFrame.set(request, 5);

interface Caller {
  call(): Promise<void>;
  close(): void;
}

function http2Caller(port: number): Caller {
  const session = http2.connect(`http://127.0.0.1:${port}`);
  const headers = { ":method": "POST", ":path": path, "content-type": "application/grpc+proto", te: "trailers" };
  return {
    call: () =>
      new Promise((resolve, reject) => {
        const stream = session.request(headers);
        stream.on("trailers", (t) => (t["grpc-status"] === "0" ? resolve() : reject(new Error(`grpc-status ${t["grpc-status"]}`))));
        stream.on("error", reject);
        stream.resume();
        stream.end(requestFrame);
      }),
    close: () => session.close(),
  };
}

function grpcWebCaller(port: number): Caller {
  const agent = new http.Agent({ keepAlive: true, maxSockets: callers });
  const headers = { "content-type": "application/grpc-web+proto", "x-grpc-web": "1", "content-length": requestFrame.length };
  const options = { host: "127.0.0.1", port, path, method: "POST", agent, headers };
  return {
    call: () =>
      new Promise((resolve, reject) => {
        const req = http.request(options, (res) => {
          let body = "";
          res.setEncoding("latin1");
          res.on("data", (chunk: string) => (body += chunk));
          res.on("end", () => (body.includes("grpc-status: 0") ? resolve() : reject(new Error(`bad answer: ${body}`))));
        });
        req.on("error", reject);
        req.end(requestFrame);
      }),
    close: () => agent.destroy(),
  };
}

async function checkWithConnect(transport: Transport): Promise<void> {
  const response = await createClient(SensorService, transport).getReadings({ name: "temp" });
  if (response.readings.celsius?.kind.value !== 21.5) throw new Error("the server answered other readings");
}

interface Run {
  perSecond: number;
  p50: number;
  p99: number;
  cpuPerCall: number;
}

async function load(caller: Caller, total: number, pid: number): Promise<Run> {
  const latencies = new Float64Array(total);
  let next = 0;
  const one = async () => {
    for (let i = next++; i < total; i = next++) {
      const began = performance.now();
      await caller.call();
      latencies[i] = performance.now() - began;
    }
  };
  const cpuBefore = cpuSeconds(pid);
  const began = performance.now();
  await Promise.all(Array.from({ length: callers }, one));
  const seconds = (performance.now() - began) / 1000;
  latencies.sort();
  return {
    perSecond: total / seconds,
    p50: latencies[Math.floor(total * 0.5)]!,
    p99: latencies[Math.floor(total * 0.99)]!,
    cpuPerCall: ((cpuSeconds(pid) - cpuBefore) / total) * 1e6,
  };
}

// The machine is shared and its load drifts, so the two servers take turns in short rounds
// (alternating who goes first) and each figure is the median round.
async function measure(name: string, children: Record<Kind, Child>, open: (ports: Ports) => Caller): Promise<void> {
  const callerOf = { svc: open(children.svc.ports), bare: open(children.bare.ports) };
  const pid = (kind: Kind) => children[kind].process.pid!;
  const runs: Record<Kind, Run[]> = { svc: [], bare: [] };
  try {
    for (const kind of kinds) await load(callerOf[kind], warmUpCalls, pid(kind));
    for (let round = 0; round < rounds; round++) {
      for (const kind of round % 2 ? [...kinds].reverse() : kinds) {
        runs[kind].push(await load(callerOf[kind], Math.ceil(calls / rounds), pid(kind)));
      }
    }
  } finally {
    for (const kind of kinds) callerOf[kind].close();
  }
  const median = (kind: Kind, figure: keyof Run) => {
    const values = runs[kind].map((run) => run[figure]).sort((a, b) => a - b);
    return (values[(values.length - 1) >> 1]! + values[values.length >> 1]!) / 2;
  };
  for (const kind of kinds) report(`${name} GetReadings, ${label[kind]}`, median(kind, "perSecond"), "calls/s");
  report(`${name} GetReadings, svc / bare`, median("svc", "perSecond") / median("bare", "perSecond"), "x", ">= 0.8");
  for (const kind of kinds) {
    report(`${name} latency p50, ${label[kind]}`, median(kind, "p50"), "ms");
    report(`${name} latency p99, ${label[kind]}`, median(kind, "p99"), "ms");
  }
  for (const kind of kinds) report(`${name} server CPU per call, ${label[kind]}`, median(kind, "cpuPerCall"), "µs");
}

async function drive(): Promise<void> {
  const [svc, bare] = await Promise.all([startServer("svc"), startServer("bare")]);
  try {
    for (const { ports } of [svc, bare]) {
      await checkWithConnect(createGrpcTransport({ baseUrl: `http://127.0.0.1:${ports.h2}` }));
      await checkWithConnect(createGrpcWebTransport({ baseUrl: `http://127.0.0.1:${ports.web}`, httpVersion: "1.1" }));
    }
    await measure(`transport gRPC HTTP/2, ${callers} streams,`, { svc, bare }, (ports) => http2Caller(ports.h2));
    await measure(`transport gRPC-web HTTP/1.1, ${callers} connections,`, { svc, bare }, (ports) => grpcWebCaller(ports.web));
  } finally {
    await Promise.all([stopServer(svc.process), stopServer(bare.process)]);
  }
}

if (process.argv[2] === "serve") await serve(process.argv[3] === "svc" ? "svc" : "bare");
else await drive();
