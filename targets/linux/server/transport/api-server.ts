// The API port: one listener serving gRPC over HTTP/2 (h2c or TLS), gRPC-web and Connect over
// HTTP/1.1, through one connect router whose services the caller registers, plus plain HTTP
// routes and CORS. It knows nothing of machines: services, interceptors and routes come in.
import { createContextValues, type ConnectRouter, type Interceptor } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { setMaxListeners } from "node:events";
import { readFile } from "node:fs/promises";
import type { AddressInfo, Server } from "node:net";
import { parseBindAddress, type BindAddress } from "./bind-address.js";
import { createConnectionTracker } from "./connection-tracker.js";
import { createCorsPolicy, type CorsOptions } from "./cors.js";
import { createHttpRouteTable, type HttpRoute } from "./http-routes.js";
import type { HttpRequest, HttpResponse } from "./http-types.js";
import { createCleartextListener, createTlsListener, type TlsCredentials } from "./listeners.js";
import { listeningOn, type ListeningOn } from "./listening-on.js";
import { peerKey, type Peer } from "./peer.js";
import { createUnknownRpcResponder } from "./unknown-rpc.js";

export interface ApiServerOptions {
  /** "host:port" to listen on, as in the `bind_address` setting; port 0 picks a free port. */
  readonly bindAddress: string;
  /** Registers the RPC services: `(router) => router.service(RobotService, impl)`. */
  readonly routes: (router: ConnectRouter) => void;
  /** Run around every RPC, first to last (auth, operations, telemetry). */
  readonly interceptors?: readonly Interceptor[];
  /** Plain HTTP routes on the same port, for paths that are not RPC methods. */
  readonly httpRoutes?: readonly HttpRoute[];
  /** Serve TLS with these PEM files (`tls_cert_file`, `tls_key_file`); cleartext without. */
  readonly tls?: { readonly certFile: string; readonly keyFile: string };
  readonly cors?: CorsOptions;
  /** How long close() lets calls finish before it destroys the connections left. Default 5000. */
  readonly closeDeadlineMs?: number;
  /** Told when a plain HTTP route throws (it has answered 500). */
  readonly onRouteError?: (error: unknown, method: string, path: string) => void;
}

export interface ApiServer {
  /** The address listened on, as the system reports it ("127.0.0.1", "::"). */
  readonly host: string;
  /** The port listened on, the one picked when 0 was asked. */
  readonly port: number;
  readonly secure: boolean;
  /** Where a client on this machine reaches the server: "http://127.0.0.1:8080". */
  readonly url: string;
  /** What it listens on, which for a wildcard address is not `url` (logs say this). */
  readonly listening: ListeningOn;
  /**
   * Stops accepting, tells running calls to wrap up (their signal aborts), sends HTTP/2 sessions
   * GOAWAY, drops idle HTTP/1.1 connections, and resolves once every connection is gone and the
   * port is free. Connections still open at the deadline are destroyed. Calling again returns
   * the same promise.
   */
  close(): Promise<void>;
}

/** The server could not start: a bad bind address, a port in use, unreadable TLS files. */
export class ListenError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ListenError";
  }
}

export async function createApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const bind = parseBindAddress(options.bindAddress);
  if (!bind.ok) throw new ListenError(bind.problem);
  const credentials = options.tls ? await readCredentials(options.tls) : undefined;

  const shutdown = new AbortController();
  // Every call in flight listens to it; many at once is normal, not a leak.
  setMaxListeners(0, shutdown.signal);
  const tracker = createConnectionTracker();
  const cors = createCorsPolicy(options.cors);
  const onRouteError = options.onRouteError ?? (() => {});
  const plain = createHttpRouteTable(options.httpRoutes ?? [], (error, req) =>
    onRouteError(error, req.method ?? "", pathOf(req)),
  );
  const peerOf = createPeerLookup();
  const services = new Set<string>();
  const unknown = createUnknownRpcResponder(services);

  const rpc = connectNodeAdapter({
    routes(router) {
      options.routes(router);
      for (const handler of router.handlers) services.add(handler.service.typeName);
    },
    interceptors: [...(options.interceptors ?? [])],
    shutdownSignal: shutdown.signal,
    contextValues: (req) => createContextValues().set(peerKey, peerOf(req)),
    fallback(req, nodeRes) {
      // The adapter hands back the very response object the handler below received.
      const res = nodeRes as HttpResponse;
      const path = pathOf(req);
      if (!unknown.answerRpc(req, res, path) && !plain.serve(req, res, path)) unknown.notFound(res);
    },
  });
  const handler = (req: HttpRequest, res: HttpResponse) => {
    if (!cors.apply(req, res)) rpc(req, res);
  };

  const server = credentials ? tlsListener(handler, tracker, credentials) : createCleartextListener(handler, tracker);
  await listen(server, bind.value, options.bindAddress);

  const address = server.address() as AddressInfo;
  const secure = credentials !== undefined;
  const deadlineMs = options.closeDeadlineMs ?? 5000;
  let closed: Promise<void> | undefined;
  return {
    host: address.address,
    port: address.port,
    secure,
    url: `${secure ? "https" : "http"}://${urlHost(address)}:${address.port}`,
    listening: listeningOn(address, secure ? "https" : "http"),
    close() {
      closed ??= new Promise<void>((resolve) => {
        shutdown.abort();
        let cancelDeadline = () => {};
        server.close(() => {
          cancelDeadline();
          resolve();
        });
        cancelDeadline = tracker.drain(deadlineMs);
      });
      return closed;
    },
  };
}

function pathOf(req: HttpRequest): string {
  const url = req.url ?? "/";
  const query = url.indexOf("?");
  return query < 0 ? url : url.slice(0, query);
}

// One Peer per connection, not per call: an HTTP/2 request's `socket` is a proxy made per stream.
function createPeerLookup(): (req: HttpRequest) => Peer {
  const peers = new WeakMap<object, Peer>();
  return (req) => {
    const connection: object = "stream" in req ? req.stream.session ?? req.stream : req.socket;
    let peer = peers.get(connection);
    if (!peer) {
      const socket = req.socket as { remoteAddress?: string; encrypted?: boolean };
      peer = { address: socket.remoteAddress ?? "", secure: socket.encrypted === true };
      peers.set(connection, peer);
    }
    return peer;
  };
}

// A client on this machine reaches a wildcard address through loopback.
function urlHost(address: AddressInfo): string {
  if (address.address === "0.0.0.0") return "127.0.0.1";
  if (address.address === "::") return "[::1]";
  return address.family === "IPv6" ? `[${address.address}]` : address.address;
}

function tlsListener(...args: Parameters<typeof createTlsListener>): Server {
  try {
    return createTlsListener(...args);
  } catch (cause) {
    throw new ListenError(`tls: the certificate or key is not usable: ${(cause as Error).message}`, { cause });
  }
}

async function readCredentials(files: { certFile: string; keyFile: string }): Promise<TlsCredentials> {
  const read = async (key: string, path: string) => {
    try {
      return await readFile(path);
    } catch (cause) {
      const why = (cause as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (cause as Error).message;
      throw new ListenError(`${key} ${JSON.stringify(path)}: ${why}`, { cause });
    }
  };
  return { cert: await read("tls_cert_file", files.certFile), key: await read("tls_key_file", files.keyFile) };
}

const listenProblems: Record<string, string> = {
  EADDRINUSE: "the address is already in use",
  EADDRNOTAVAIL: "not an address of this machine",
  EACCES: "permission denied (ports below 1024 need privileges)",
  ENOTFOUND: "unknown host",
  EAI_AGAIN: "the host name could not be resolved",
};

function listen(server: Server, bind: BindAddress, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (cause: NodeJS.ErrnoException) => {
      const why = listenProblems[cause.code ?? ""] ?? cause.message;
      reject(new ListenError(`bind_address ${JSON.stringify(text)}: ${why}`, { cause }));
    };
    server.once("error", onError);
    server.listen({ host: bind.host, port: bind.port }, () => {
      server.off("error", onError);
      resolve();
    });
  });
}
