// The host shim of the MCU target: a Node HTTP/1.1 server on loopback that relays each request
// into one long-lived XS worker running the MCU bundle, and each answer back. It only moves
// bytes, tells the time and hands over random bytes: method, path, headers, the peer's address
// and body go in; status, headers and body come out; every reply says when the XS side's next
// timer falls due and the shim comes back then. Like a device's HTTP server it keeps no more of
// a body than the MCU reads (body-limits.ts): past the limit it stops keeping bytes and says so
// at once, so the answer (413, RESOURCE_EXHAUSTED, or a refusal from the head) comes from XS
// while the client may still be sending. A new configuration is pushed into the running worker
// with `pushConfig` (no restart); that is the host's own path, as flashing is a device's.
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { COMMAND_CANCEL, COMMAND_REQUEST } from "../../targets/mcu/host-protocol.js";
import { requestBodyLimit } from "../../targets/mcu/body-limits.js";
import type { ConfigReport, XsnapHostOptions } from "../../targets/mcu/svc-mcu.js";
import { moduleAsScript, XsWorker } from "../xs/xs-worker.js";
import { buildTargetBundle } from "./build-bundle.mjs";
import { createWorkerLink, type McuLogEntry } from "./worker-link.js";

export type { McuLogEntry } from "./worker-link.js";

export interface McuShimOptions extends XsnapHostOptions {
  /** The stored configuration the machine boots from (JSON text or data). */
  config: string | object;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Each log entry the machine writes. */
  onLog?: (entry: McuLogEntry) => void;
  /** The time told to the XS side, in milliseconds since the epoch; Date.now by default. */
  now?: () => number;
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

/**
 * Reads a request's body up to the MCU's limit for it, as a device's HTTP server would, and
 * hands it over once complete; past the limit (or when content-length says it will be) it hands
 * over `undefined` at once, and the rest of the body is read and thrown away.
 */
function readWithin(req: http.IncomingMessage, done: (body: Buffer | undefined) => void): void {
  const limit = requestBodyLimit(req.method ?? "GET", req.url ?? "/", req.headers["content-type"]);
  const chunks: Buffer[] = [];
  let size = 0;
  let handed = false;
  const dropped = () => {
    handed = true;
    chunks.length = 0;
    req.resume();
    done(undefined);
  };
  if (Number(req.headers["content-length"] ?? 0) > limit) return dropped();
  req.on("data", (chunk: Buffer) => {
    if (handed) return;
    size += chunk.length;
    if (size > limit) dropped();
    else chunks.push(chunk);
  });
  req.on("end", () => {
    if (!handed) done(Buffer.concat(chunks));
  });
}

export async function startMcuShim(options: McuShimOptions): Promise<McuShim> {
  const { config, host = "127.0.0.1", port = 0, onLog, now = Date.now, ...hostOptions } = options;
  const script = moduleAsScript(await buildTargetBundle(), "svcMcu");
  const worker = new XsWorker();
  const link = createWorkerLink({ worker, now, onLog });
  const { exchange, pushConfig } = link;

  function relay(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer | undefined): void {
    const headers: Array<[string, string]> = [];
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.push([name, Array.isArray(value) ? value.join(", ") : value]);
    }
    const call = exchange((id) => ({
      kind: COMMAND_REQUEST,
      now: now(),
      id,
      method: req.method ?? "GET",
      path: req.url ?? "/",
      headers,
      peer: req.socket.remoteAddress ?? "",
      bodyDropped: body === undefined,
      entropy: randomBytes(32),
      body: body ?? new Uint8Array(0),
    }));
    let answered = false;
    res.on("close", () => {
      // The client went away first: the call is cancelled in XS.
      if (!answered && !link.closing) link.send({ kind: COMMAND_CANCEL, now: now(), id: call.id }).catch(() => {});
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

  const server = http.createServer((req, res) => readWithin(req, (body) => relay(req, res, body)));

  try {
    // Listening first, so the XS side knows its port (an entity may name the machine with it);
    // nobody has the address until this returns.
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, resolve);
    });
    const bound = (server.address() as AddressInfo).port;
    const apiKeys = { hostNames: [host], ...hostOptions.apiKeys, port: bound };
    await worker.evaluate(script);
    await worker.evaluate(`globalThis.svcMcu.installXsnapHost(${JSON.stringify({ ...hostOptions, apiKeys })});`);
    const boot = await pushConfig(config);
    return {
      url: `http://${host}:${bound}`,
      sdkHost: `http://localhost:${bound}`,
      port: bound,
      workerPid: worker.pid ?? 0,
      boot,
      pushConfig,
      async close() {
        link.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await worker.close();
      },
    };
  } catch (error) {
    link.close();
    server.close();
    await worker.close();
    throw error;
  }
}
