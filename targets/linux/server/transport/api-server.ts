// The API port: one listener serving gRPC over HTTP/2 (h2c or TLS), gRPC-web and Connect over
// HTTP/1.1, through one connect router whose services the caller registers, plus plain HTTP
// routes, CORS and the Host check, every request and connection held to the limits of
// limits.ts. It knows nothing of machines: services, interceptors, routes, the access rules and
// the credentials check come in.
import type { ConnectRouter, Interceptor } from "@connectrpc/connect";
import { setMaxListeners } from "node:events";
import { readFile } from "node:fs/promises";
import type { IncomingHttpHeaders } from "node:http2";
import type { AddressInfo, Server } from "node:net";
import { Code } from "../../../../core/index.js";
import { ListenError } from "../../system/index.js";
import { parseBindAddress, type BindAddress } from "./bind-address.js";
import { createConnectionGate } from "./connection-gate.js";
import { createConnectionTracker } from "./connection-tracker.js";
import type { AccessRules, CorsOptions } from "./cors.js";
import { createHttpRouteTable, type HttpRoute } from "./http-routes.js";
import type { HttpRequest, HttpResponse } from "../../../../node/rpc/http-types.js";
import { MESSAGE_SIZE_SETTING, resolveLimits, type TransportLimits } from "./limits.js";
import { createCleartextListener, createTlsListener, type ListenerParts, type TlsCredentials } from "./listeners.js";
import { createTlsAlongside } from "./tls-alongside.js";
import type { StreamTaker } from "../../../../node/rpc/streams-first.js";
import { listeningOn, type ListeningOn } from "./listening-on.js";
import { peerKey, peerOfSocket, type Peer } from "./peer.js";
import { continueIfExpected } from "../../../../node/rpc/request-body.js";
import { createRequestScreen, ownNamesOnly } from "./request-screen.js";
import type { ForwardOf } from "../../../../node/rpc/lean-calls.js";
import type { MaybeAsync } from "../../../../node/rpc/maybe-async.js";
import { createRpcHandler, type RpcHandler } from "../../../../node/rpc/rpc-handler.js";
import type { ForeignServices } from "../../../../node/rpc/foreign-methods.js";
import { ResponseIncoming, type RpcIncoming } from "../../../../node/rpc/rpc-incoming.js";
import { isRefusal } from "../../../../node/rpc/rpc-refusal.js";
import type { RpcCheck } from "../../../../node/rpc/rpc-refusal.js";
import { createUnknownRpcResponder } from "../../../../node/rpc/unknown-rpc.js";
import { createCallValues } from "../../../../node/rpc/call-values.js";

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
  /**
   * Without `tls`: offer TLS with this certificate beside cleartext on the same port, to clients
   * that open with a TLS handshake (svc-cloud's certificate for the machine's names). Given or
   * changed later with `offerTls`.
   */
  readonly tlsAlongside?: TlsCredentials;
  readonly cors?: CorsOptions;
  /**
   * Who may call from a browser, read on every request (return the same object while nothing
   * changes). Default: no tokens, only the machine's own names and origins.
   */
  readonly access?: () => AccessRules;
  /**
   * What every RPC-shaped request must pass (credentials), asked before its body is read and
   * before a method nobody serves hears UNIMPLEMENTED; a refusal is answered instead, in the
   * caller's protocol, and the body is never read. `path` is "/package.Service/Method"; `peer` is
   * the request's connection's. Answered at once when it can be.
   */
  readonly checkRpc?: (headers: IncomingHttpHeaders, path: string, peer: Peer) => MaybeAsync<RpcCheck>;
  /** Paths of methods anyone may call (Authenticate): not checked, their bodies held to a small limit. */
  readonly openMethods?: readonly string[];
  /** Overrides of the limits (limits.ts); the message size is the `network.max_message_bytes` setting. */
  readonly limits?: Partial<TransportLimits>;
  /** Told of each connection refused for the caps (the caller bounds how much of it it logs). */
  readonly onConnectionRefused?: (address: string, why: string) => void;
  /** Unary calls whose resource another process serves (a module's) pass through as bytes. */
  readonly forwardOf?: ForwardOf;
  /** Services served elsewhere whose calls pass on as bytes (node/rpc/foreign-methods.ts). */
  readonly foreign?: ForeignServices;
  /** Told when a call's answer could not be written for another reason than the client leaving. */
  readonly onCallError?: (error: unknown, path: string) => void;
  /** How long close() lets calls finish before it destroys the connections left. Default 5000. */
  readonly closeDeadlineMs?: number;
  /** Told when a plain HTTP route throws (it has answered 500). */
  readonly onRouteError?: (error: unknown, method: string, path: string) => void;
}

export interface ApiServer {
  /** The limits in force. */
  readonly limits: TransportLimits;
  /** The address listened on, as the system reports it ("127.0.0.1", "::"). */
  readonly host: string;
  /** The port listened on, the one picked when 0 was asked. */
  readonly port: number;
  readonly secure: boolean;
  /** Where a client on this machine reaches the server: "http://127.0.0.1:8080". */
  readonly url: string;
  /** What it listens on, which for a wildcard address is not `url` (logs say this). */
  readonly listening: ListeningOn;
  /** True for an entity naming this machine: one of its names, alone or with its port ("localhost:8080"). */
  namesMachine(entity: string): boolean;
  /** The port's RPC methods for calls that arrive another way (WebRTC), under the same checks and bounds. */
  readonly calls: PortCalls;
  /**
   * A cleartext port offers TLS with `credentials` from now on, beside cleartext (connections
   * already open keep theirs). Throws a ListenError, offering what it offered before, when they
   * are not a usable certificate and key; a TLS port (`tls`) refuses.
   */
  offerTls(credentials: TlsCredentials): void;
  /**
   * Stops accepting, tells running calls to wrap up (their signal aborts), sends HTTP/2 sessions
   * GOAWAY, drops idle HTTP/1.1 connections, and resolves once every connection is gone and the
   * port is free. Connections still open at the deadline are destroyed. Calling again returns
   * the same promise.
   */
  close(): Promise<void>;
}

/** The port's RPC methods as another transport reaches them. */
export type PortCalls = Pick<RpcHandler, "serveIncoming" | "takesOneMessage" | "services">;

export async function createApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const bind = parseBindAddress(options.bindAddress);
  if (!bind.ok) throw new ListenError(bind.problem);
  const credentials = options.tls ? await readCredentials(options.tls) : undefined;

  const shutdown = new AbortController();
  // Every call in flight listens to it; many at once is normal, not a leak.
  setMaxListeners(0, shutdown.signal);
  const tracker = createConnectionTracker();
  let port = 0;
  const screen = createRequestScreen({
    bindHost: bind.value.host,
    port: () => port,
    secure: credentials !== undefined,
    access: options.access ?? (() => ownNamesOnly),
    cors: options.cors,
  });
  const limits = resolveLimits(options.limits);
  const peerOf = createPeerLookup();
  const checkPeer = options.checkRpc;
  const checkRpc = checkPeer && ((incoming: RpcIncoming, path: string) => checkPeer(incoming.headers, path, peerOf(incoming)));
  const onRouteError = options.onRouteError ?? (() => {});
  const plain = createHttpRouteTable(options.httpRoutes ?? [], (error, req) =>
    onRouteError(error, req.method ?? "", pathOf(req)),
  );
  const rpc = createRpcHandler({
    routes: options.routes,
    interceptors: options.interceptors ?? [],
    shutdownSignal: shutdown.signal,
    contextValues: (incoming) => createCallValues().set(peerKey, peerOf(incoming)),
    limits: { ...limits, messageSizeSetting: MESSAGE_SIZE_SETTING },
    checkRpc,
    openMethods: options.openMethods,
    onError: options.onCallError ?? (() => {}),
    forwardOf: options.forwardOf,
    foreign: options.foreign,
  });
  const unknown = createUnknownRpcResponder(rpc.services);
  const answerUnknown = (req: HttpRequest, res: HttpResponse, path: string) => {
    if (!checkRpc) return unknown.answerRpc(req, res, path);
    Promise.resolve(checkRpc(new ResponseIncoming(req, res), path)).then(
      (check) => unknown.answerRpc(req, res, path, isRefusal(check) ? check : undefined),
      (error: unknown) => {
        onRouteError(error, req.method ?? "", path);
        unknown.answerRpc(req, res, path, { code: Code.Internal, message: "internal error" });
      },
    );
  };

  const handler = (req: HttpRequest, res: HttpResponse) => {
    if (screen.screen(req, res)) return;
    const path = pathOf(req);
    if (rpc.serve(req, res, path)) return;
    if (unknown.isRpc(req, path)) return answerUnknown(req, res, path);
    // Plain routes read their bodies as they like.
    continueIfExpected(req, res);
    if (!plain.serve(req, res, path)) unknown.notFound(res);
  };

  const gate = createConnectionGate({ ...limits, onRefused: options.onConnectionRefused });
  // An HTTP/2 gRPC call the lean path takes skips Node's request and response objects, once the
  // screen would have let it through untouched.
  const takeStream: StreamTaker = (stream, headers, rawHeaders) => screen.passes(headers) && rpc.serveStream(stream, headers, rawHeaders);
  const parts: ListenerParts = { handler, takeStream, tracker, gate, limits };
  const alongside = createTlsAlongside(parts);
  if (!credentials && options.tlsAlongside) alongside.offer(options.tlsAlongside);
  const server = credentials ? tlsListener(parts, credentials) : createCleartextListener(parts, alongside.server);
  await listen(server, bind.value, options.bindAddress);

  const address = server.address() as AddressInfo;
  port = address.port;
  const secure = credentials !== undefined;
  const deadlineMs = options.closeDeadlineMs ?? 5000;
  let closed: Promise<void> | undefined;
  return {
    host: address.address,
    port: address.port,
    secure,
    limits,
    url: `${secure ? "https" : "http"}://${urlHost(address)}:${address.port}`,
    listening: listeningOn(address, secure ? "https" : "http"),
    namesMachine: screen.namesMachine,
    calls: rpc,
    offerTls(offered) {
      if (credentials) throw new ListenError("tls: this port serves TLS with tls_cert_file and tls_key_file; it offers no other certificate");
      alongside.offer(offered);
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        shutdown.abort();
        alongside.close();
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
function createPeerLookup(): (incoming: RpcIncoming) => Peer {
  const peers = new WeakMap<object, Peer>();
  return (incoming) => {
    const connection = incoming.connection;
    let peer = peers.get(connection);
    if (!peer) {
      peer = peerOfSocket(incoming.socket);
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

function tlsListener(parts: ListenerParts, credentials: TlsCredentials): Server {
  try {
    return createTlsListener(parts, credentials);
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
