// A lean gRPC load generator for benchmarks that share the machine's two cores with the server
// they measure: the request frame is encoded once, each answer is checked only for its status,
// and N callers keep N calls in flight over one HTTP/2 session (gRPC) or a keep-alive agent of N
// sockets (gRPC-web over HTTP/1.1).
import { readFileSync } from "node:fs";
import http from "node:http";
import http2 from "node:http2";

export interface Caller {
  call(): Promise<void>;
  close(): void;
}

/** One gRPC length-prefixed message (uncompressed) around an encoded request. */
export function grpcFrame(message: Uint8Array): Buffer {
  const frame = Buffer.alloc(5 + message.length);
  frame.writeUInt32BE(message.length, 1);
  frame.set(message, 5);
  return frame;
}

/** Request headers sent with every call besides the protocol's own (authorization, viam-sid). */
export type CallHeaders = Readonly<Record<string, string>>;

/** Calls `path` with `frame` over one HTTP/2 session; a call succeeds on grpc-status 0. */
export function http2Caller(port: number, path: string, frame: Buffer, extra: CallHeaders = {}): Caller {
  const session = http2.connect(`http://127.0.0.1:${port}`);
  const headers = { ...extra, ":method": "POST", ":path": path, "content-type": "application/grpc+proto", te: "trailers" };
  return {
    call: () =>
      new Promise((resolve, reject) => {
        const stream = session.request(headers);
        stream.on("trailers", (t) => (t["grpc-status"] === "0" ? resolve() : reject(new Error(`grpc-status ${t["grpc-status"]}: ${t["grpc-message"]}`))));
        stream.on("error", reject);
        stream.resume();
        stream.end(frame);
      }),
    close: () => session.close(),
  };
}

/** Calls `path` with `frame` as gRPC-web over HTTP/1.1, on up to `sockets` keep-alive connections. */
export function grpcWebCaller(port: number, path: string, frame: Buffer, sockets: number, extra: CallHeaders = {}): Caller {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const headers = { ...extra, "content-type": "application/grpc-web+proto", "x-grpc-web": "1", "content-length": frame.length };
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
        req.end(frame);
      }),
    close: () => agent.destroy(),
  };
}

/** CPU seconds a process has used, from /proc (user + system, in clock ticks of 10 ms). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export interface Run {
  perSecond: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  /** Microseconds of the server process's CPU per call. */
  cpuPerCall: number;
}

/** Makes `total` calls with `callers` of them in flight at any time; `pid` is the server's process. */
export async function runLoad(caller: Caller, total: number, callers: number, pid: number): Promise<Run> {
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

/** One caller over several: calls go to each in turn (e.g. several HTTP/2 sessions). */
export function spreadCaller(callers: readonly Caller[]): Caller {
  let next = 0;
  return {
    call: () => callers[next++ % callers.length]!.call(),
    close: () => {
      for (const caller of callers) caller.close();
    },
  };
}
