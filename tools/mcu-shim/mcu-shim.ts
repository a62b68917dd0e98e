// The host shim of the MCU target: a Node HTTP/1.1 server on loopback that relays each request
// into one long-lived XS worker running the MCU bundle, and each answer back. It only moves
// bytes and tells the time: method, path, headers and body go in; status, headers and body come
// out; every reply says when the XS side's next timer falls due and the shim comes back then.
// A new configuration is pushed into the running worker with `pushConfig` (no restart).
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  COMMAND_CANCEL,
  COMMAND_CONFIG,
  COMMAND_REQUEST,
  COMMAND_TICK,
  decodeReply,
  encodeCommand,
  type FinishedExchange,
  type HostCommand,
  type HostReply,
} from "../../targets/mcu/host-protocol.js";
import type { ConfigReport, XsnapHostOptions } from "../../targets/mcu/svc-mcu.js";
import { moduleAsScript, XsWorker } from "../xs/xs-worker.js";
import { buildTargetBundle } from "./build-bundle.mjs";

export interface McuShimOptions extends XsnapHostOptions {
  /** The stored configuration the machine boots from (JSON text or data). */
  config: string | object;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Each log entry the machine writes. */
  onLog?: (entry: McuLogEntry) => void;
}

export interface McuLogEntry {
  time: number;
  level: string;
  logger: string;
  message: string;
  fields: Record<string, unknown>;
}

export interface McuShim {
  /** "http://127.0.0.1:PORT" */
  readonly url: string;
  /** "http://localhost:PORT": the SDK's dial wants a host containing "local". */
  readonly sdkHost: string;
  readonly port: number;
  /** The XS worker's process id (the same one for the shim's whole life). */
  readonly workerPid: number;
  /** What became of the boot configuration. */
  readonly boot: ConfigReport;
  /** Applies a new configuration in the running worker. */
  pushConfig(config: string | object): Promise<ConfigReport>;
  close(): Promise<void>;
}

const textOf = (config: string | object) => (typeof config === "string" ? config : JSON.stringify(config));

export async function startMcuShim(options: McuShimOptions): Promise<McuShim> {
  const { config, host = "127.0.0.1", port = 0, onLog, ...hostOptions } = options;
  const script = moduleAsScript(await buildTargetBundle(), "svcMcu");
  const worker = new XsWorker();
  let nextId = 1;
  let timer: NodeJS.Timeout | undefined;
  let wakeAt = Infinity;
  let closing = false;
  const waiting = new Map<number, (done: FinishedExchange) => void>();

  async function send(command: HostCommand): Promise<HostReply> {
    const reply = decodeReply((await worker.commandBytes(encodeCommand(command))).reply);
    for (const done of reply.finished) {
      const resolve = waiting.get(done.id);
      waiting.delete(done.id);
      resolve?.(done);
    }
    if (reply.logs !== "" && onLog) for (const entry of JSON.parse(reply.logs) as McuLogEntry[]) onLog(entry);
    wakeFor(reply.nextDue);
    return reply;
  }

  /** Comes back when the XS side's next timer falls due. */
  function wakeFor(due: number | undefined): void {
    if (closing || due === undefined || due >= wakeAt) return;
    if (timer) clearTimeout(timer);
    wakeAt = due;
    timer = setTimeout(() => {
      timer = undefined;
      wakeAt = Infinity;
      if (!closing) send({ kind: COMMAND_TICK, now: Date.now() }).catch(() => {});
    }, Math.max(0, due - Date.now()));
  }

  function exchange(command: (id: number) => HostCommand): { id: number; done: Promise<FinishedExchange> } {
    const id = nextId++;
    const done = new Promise<FinishedExchange>((resolve, reject) => {
      waiting.set(id, resolve);
      send(command(id)).catch((error: unknown) => {
        waiting.delete(id);
        reject(error);
      });
    });
    return { id, done };
  }

  async function pushConfig(next: string | object): Promise<ConfigReport> {
    const { done } = exchange((id) => ({ kind: COMMAND_CONFIG, now: Date.now(), id, text: textOf(next) }));
    return JSON.parse(Buffer.from((await done).body).toString("utf8")) as ConfigReport;
  }

  function relay(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): void {
    const headers: Array<[string, string]> = [];
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.push([name, Array.isArray(value) ? value.join(", ") : value]);
    }
    const call = exchange((id) => ({ kind: COMMAND_REQUEST, now: Date.now(), id, method: req.method ?? "GET", path: req.url ?? "/", headers, body }));
    let answered = false;
    res.on("close", () => {
      // The client went away first: the call is cancelled in XS.
      if (!answered && !closing) send({ kind: COMMAND_CANCEL, now: Date.now(), id: call.id }).catch(() => {});
    });
    call.done.then(
      (done) => {
        answered = true;
        res.writeHead(done.status, Object.fromEntries(done.headers));
        res.end(done.body);
      },
      (error: unknown) => {
        answered = true;
        res.writeHead(500, { "content-type": "text/plain" });
        res.end(`the XS worker failed: ${String(error)}\n`);
      },
    );
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => relay(req, res, Buffer.concat(chunks)));
  });

  try {
    await worker.evaluate(script);
    await worker.evaluate(`globalThis.svcMcu.installXsnapHost(${JSON.stringify(hostOptions)});`);
    const boot = await pushConfig(config);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, resolve);
    });
    const bound = (server.address() as AddressInfo).port;
    return {
      url: `http://${host}:${bound}`,
      sdkHost: `http://localhost:${bound}`,
      port: bound,
      workerPid: worker.pid ?? 0,
      boot,
      pushConfig,
      async close() {
        closing = true;
        if (timer) clearTimeout(timer);
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await worker.close();
      },
    };
  } catch (error) {
    closing = true;
    if (timer) clearTimeout(timer);
    server.close();
    await worker.close();
    throw error;
  }
}
