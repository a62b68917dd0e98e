// Unary calls carried as bytes to one peer, as gRPC-web over HTTP/1.1 on kept-alive connections,
// with exactly rawUnary's meaning (raw-unary.ts): the same call, the same outcomes. It exists for
// its cost: measured here, Node's HTTP/2 client spent ~130-165 µs of CPU on each call and this
// ~50 µs, which is most of what a call through the main part to a remote part costs.
//
// Each connection carries one call at a time, and at most `maxConnections` are held; a call
// that finds none free waits its turn (first come, first served). A connection whose answer says
// `connection: close`, that breaks the protocol or a bound, or that errs, is dropped; so is one
// whose call is cancelled (the peer sees its connection close, as it would see a stream reset).
// An idle connection is used again only for a while (`reuseWithinMs`), below the peer's keep-alive
// timeout, so that a call is not written into a connection the peer is just closing.
//
// A connection that answered and then closes without being asked to might mean the peer went
// away, or only that it closed an idle connection (svc-server and Node close them after 5 s):
// one request on a connection of its own (`OPTIONS *`, HTTP's no-op) tells which, and `onGone`
// is told only when it goes unanswered, once for each outage (until a call is answered again).
import { ConnectError } from "@connectrpc/connect";
import net from "node:net";
import tls from "node:tls";
import { Code } from "../../../core/index.js";
import { describeConnectionError } from "./describe-connection-error.js";
import { createGrpcWebAnswer, type Answered, type GrpcWebAnswer } from "./grpc-web-answer.js";
import { notGrpcWebError } from "./not-grpc-web.js";
import { watchCancel, type RawUnaryCall } from "./raw-unary.js";

/** The bound on an answer's messages when a call sets none. */
export const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024 * 1024;

export interface GrpcWebPoolOptions {
  /** "http://host:port" or "https://host:port". */
  readonly url: string;
  /** Who is called, for messages: "remote pi". Default "the remote". */
  readonly peer?: string;
  /** Connections held at once, each carrying one call at a time. Default 32. */
  readonly maxConnections?: number;
  /** Told when the peer went away (with why, when known); then not again until a call is answered. */
  readonly onGone?: (why: string | undefined) => void;
  /** How long after its last answer an idle connection is used again; older ones are closed. Default 4 s. */
  readonly reuseWithinMs?: number;
  /** A monotonic clock in milliseconds. Default `performance.now`. */
  readonly now?: () => number;
}

export interface GrpcWebPool {
  /** One unary call as bytes: the answer message's bytes, or a thrown ConnectError (as rawUnary). */
  call(call: RawUnaryCall): Promise<Uint8Array>;
  /** What broke the last dial, in words; undefined once a call is answered. */
  failure(): string | undefined;
  /** Fails the calls waiting and running (UNAVAILABLE) and closes every connection. */
  close(): void;
}

interface Endpoint {
  readonly host: string;
  readonly port: number;
  readonly secure: boolean;
  /** "host:port" as the URL has it, for the host header. */
  readonly authority: string;
  /** What follows the path in every request's head: the version and the protocol's headers. */
  readonly fixedHead: string;
}

interface Job {
  readonly request: Buffer;
  readonly maxAnswerBytes: number;
  readonly resolve: (message: Uint8Array) => void;
  readonly reject: (error: ConnectError) => void;
  stopWatching: () => void;
  /** The connection carrying it; undefined while it waits. */
  link: Link | undefined;
  done: boolean;
}

interface Link {
  readonly socket: net.Socket;
  job: Job | undefined;
  answer: GrpcWebAnswer | undefined;
  connected: boolean;
  /** It answered a call: its closing may say the peer went away. */
  answered: boolean;
  /** The pool ended it: its closing says nothing about the peer. */
  ours: boolean;
  error: Error | undefined;
  idleSince: number;
}

interface PoolState {
  readonly peer: string;
  readonly endpoint: Endpoint;
  readonly maxConnections: number;
  readonly reuseWithinMs: number;
  readonly now: () => number;
  readonly onGone: (why: string | undefined) => void;
  readonly links: Set<Link>;
  /** Connections with no call, the most recently used last. */
  readonly idle: Link[];
  /** Calls waiting for a connection, first come first. */
  readonly waiting: Job[];
  closed: boolean;
  failure: string | undefined;
  /** `onGone` was told, and is not told again until a call is answered. */
  outage: boolean;
  /** The dial asking whether the peer is still there, while one runs. */
  check: net.Socket | undefined;
}

export function createGrpcWebPool(options: GrpcWebPoolOptions): GrpcWebPool {
  const state: PoolState = {
    peer: options.peer ?? "the remote",
    endpoint: endpointOf(options.url),
    maxConnections: options.maxConnections ?? 32,
    reuseWithinMs: options.reuseWithinMs ?? 4_000,
    now: options.now ?? (() => performance.now()),
    onGone: options.onGone ?? (() => {}),
    links: new Set(),
    idle: [],
    waiting: [],
    closed: false,
    failure: undefined,
    outage: false,
    check: undefined,
  };
  return {
    call: (call) => startCall(state, call),
    failure: () => state.failure,
    close: () => closePool(state),
  };
}

function endpointOf(url: string): Endpoint {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new ConnectError(`${url} is not an http:// or https:// address`, Code.InvalidArgument);
  const secure = parsed.protocol === "https:";
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: parsed.port === "" ? (secure ? 443 : 80) : Number(parsed.port),
    secure,
    authority: parsed.host,
    fixedHead: ` HTTP/1.1\r\nhost: ${parsed.host}\r\ncontent-type: application/grpc-web+proto\r\nx-grpc-web: 1\r\n`,
  };
}

// --- a call's way through the pool ---

function startCall(state: PoolState, call: RawUnaryCall): Promise<Uint8Array> {
  if (state.closed) return Promise.reject(closedError());
  let request: Buffer;
  try {
    request = requestOf(state.endpoint, call);
  } catch (thrown) {
    return Promise.reject(thrown);
  }
  return new Promise((resolve, reject) => {
    const job: Job = { request, maxAnswerBytes: call.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES, resolve, reject, stopWatching: noStop, link: undefined, done: false };
    job.stopWatching = watchCancel(call.cancel, (reason) => cancel(state, job, reason));
    // A call cancelled before it began has been answered already.
    if (job.done) job.stopWatching();
    else take(state, job);
  });
}

function take(state: PoolState, job: Job): void {
  const link = reusable(state) ?? (state.links.size < state.maxConnections ? dial(state) : undefined);
  if (link === undefined) state.waiting.push(job);
  else send(state, link, job);
}

/** The most recently used idle connection still fit to carry a call; those idle too long are closed. */
function reusable(state: PoolState): Link | undefined {
  if (state.idle.length === 0) return undefined;
  const now = state.now();
  for (let link = state.idle.pop(); link !== undefined; link = state.idle.pop()) {
    if (now - link.idleSince <= state.reuseWithinMs && link.socket.writable) return link;
    retire(state, link);
  }
  return undefined;
}

function send(state: PoolState, link: Link, job: Job): void {
  link.job = job;
  link.answer = createGrpcWebAnswer(state.peer, job.maxAnswerBytes);
  job.link = link;
  link.socket.write(job.request);
}

function onData(state: PoolState, link: Link, bytes: Buffer): void {
  const job = link.job;
  // Bytes nobody asked for: the connection is not trusted again.
  if (job === undefined || link.answer === undefined) return retire(state, link);
  let answered: Answered | undefined;
  try {
    answered = link.answer.push(bytes);
  } catch (thrown) {
    link.job = undefined;
    retire(state, link);
    return finish(job, ConnectError.from(thrown, Code.Internal));
  }
  if (answered !== undefined) completed(state, link, job, answered);
}

function completed(state: PoolState, link: Link, job: Job, answered: Answered): void {
  link.job = undefined;
  link.answer = undefined;
  link.answered = true;
  state.failure = undefined;
  state.outage = false;
  finish(job, answered.outcome);
  if (answered.keepAlive && state.links.has(link) && !state.closed) release(state, link);
  else retire(state, link);
}

/** A connection free again: the next waiting call takes it, or it waits idle. */
function release(state: PoolState, link: Link): void {
  if (!link.socket.writable) return retire(state, link);
  const next = state.waiting.shift();
  if (next !== undefined) return send(state, link, next);
  link.idleSince = state.now();
  state.idle.push(link);
}

function cancel(state: PoolState, job: Job, reason: unknown): void {
  if (job.done) return;
  const link = job.link;
  if (link !== undefined) {
    link.job = undefined;
    retire(state, link);
  } else {
    const at = state.waiting.indexOf(job);
    if (at >= 0) state.waiting.splice(at, 1);
  }
  finish(job, ConnectError.from(reason, Code.Canceled));
}

function finish(job: Job, outcome: Uint8Array | ConnectError): void {
  if (job.done) return;
  job.done = true;
  job.link = undefined;
  job.stopWatching();
  if (outcome instanceof ConnectError) job.reject(outcome);
  else job.resolve(outcome);
}

// --- connections ---

function dial(state: PoolState): Link {
  const socket = connect(state.endpoint);
  socket.setNoDelay(true);
  const link: Link = { socket, job: undefined, answer: undefined, connected: false, answered: false, ours: false, error: undefined, idleSince: 0 };
  state.links.add(link);
  socket.once(state.endpoint.secure ? "secureConnect" : "connect", () => (link.connected = true));
  socket.on("data", (bytes: Buffer) => onData(state, link, bytes));
  // What broke the connection; 'close' follows, and says it.
  socket.on("error", (error: Error) => (link.error ??= error));
  socket.once("close", () => onClose(state, link));
  return link;
}

/** A connection to the peer: TLS offering HTTP/1.1 only, certificates checked against the system's authorities, or plain TCP. */
function connect({ host, port, secure }: Endpoint): net.Socket {
  if (!secure) return net.connect({ host, port });
  return tls.connect({ host, port, ALPNProtocols: ["http/1.1"], ...(net.isIP(host) === 0 ? { servername: host } : {}) });
}

/** Ends a connection on the pool's own account. */
function retire(state: PoolState, link: Link): void {
  link.ours = true;
  forget(state, link);
  link.socket.destroy();
}

function forget(state: PoolState, link: Link): void {
  state.links.delete(link);
  const at = state.idle.indexOf(link);
  if (at >= 0) state.idle.splice(at, 1);
}

function onClose(state: PoolState, link: Link): void {
  forget(state, link);
  const job = link.job;
  link.job = undefined;
  if (job !== undefined) endOfConnection(state, link, job);
  if (!link.ours && !state.closed) noteLoss(state, link);
  admitWaiting(state);
}

/** A call whose connection closed: an answer whose body runs to the connection's end is whole now; any other was cut short. */
function endOfConnection(state: PoolState, link: Link, job: Job): void {
  let answered: Answered | undefined;
  try {
    answered = link.answer?.end();
  } catch (thrown) {
    return finish(job, ConnectError.from(thrown, Code.Internal));
  }
  if (answered !== undefined) completed(state, link, job, answered);
  else finish(job, lostCall(state, link));
}

/** Why a call failed when its connection closed before its answer. */
function lostCall(state: PoolState, link: Link): ConnectError {
  const { peer } = state;
  const error = link.error;
  if ((error as NodeJS.ErrnoException | undefined)?.code === "ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL") {
    return notGrpcWebError(`${peer} does not take HTTP/1.1 over TLS: ${error!.message}`, error);
  }
  if (!link.connected) {
    return new ConnectError(`${peer} could not be reached: ${error ? describeConnectionError(error) : "the connection closed"}`, Code.Unavailable, undefined, undefined, error);
  }
  const why = error ? describeConnectionError(error) : "the connection closed before the answer was complete";
  return new ConnectError(`the call to ${peer} failed: ${why}`, Code.Unavailable, undefined, undefined, error);
}

/** A connection closed by the peer or the network: a failed dial is remembered; an answering one is looked into. */
function noteLoss(state: PoolState, link: Link): void {
  if (link.answered) return checkPeer(state);
  if (link.error !== undefined) state.failure = describeConnectionError(link.error);
}

/**
 * Asks the peer once whether it is still there, with HTTP's own no-op (`OPTIONS *`): any answer
 * says it is; a connection refused, or closed without a word (a process dying takes connections
 * before it stops listening), says it went away, and `onGone` is told.
 */
function checkPeer(state: PoolState): void {
  if (state.outage || state.check !== undefined || state.closed) return;
  const check = connect(state.endpoint);
  let error: Error | undefined;
  let answered = false;
  state.check = check;
  check.write(`OPTIONS * HTTP/1.1\r\nhost: ${state.endpoint.authority}\r\nconnection: close\r\n\r\n`);
  check.once("data", () => {
    answered = true;
    check.destroy();
  });
  check.once("error", (e: Error) => (error = e));
  check.once("close", () => {
    state.check = undefined;
    if (answered || state.closed || state.outage) return;
    if (error !== undefined) state.failure = describeConnectionError(error);
    state.outage = true;
    state.onGone(error === undefined ? undefined : state.failure);
  });
}

/** Room for another connection: the calls waiting for one dial it. */
function admitWaiting(state: PoolState): void {
  while (!state.closed && state.waiting.length > 0 && state.links.size < state.maxConnections) send(state, dial(state), state.waiting.shift()!);
}

function closePool(state: PoolState): void {
  if (state.closed) return;
  state.closed = true;
  for (const job of state.waiting.splice(0)) finish(job, closedError());
  for (const link of [...state.links]) {
    const job = link.job;
    link.job = undefined;
    retire(state, link);
    if (job !== undefined) finish(job, closedError());
  }
  state.check?.destroy();
}

function closedError(): ConnectError {
  return new ConnectError("the connection has been closed", Code.Unavailable);
}

// --- the request ---

const PATH = /^\/[\x21-\x7e]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** Headers the protocol sets itself; a call's own of these names are not sent (as rawUnary's are overridden). */
const PROTOCOL_HEADERS = new Set(["host", "content-type", "content-length", "x-grpc-web", "grpc-timeout", "connection", "transfer-encoding", "te"]);

/** The request's bytes: its head, and the message in one frame. */
function requestOf(endpoint: Endpoint, call: RawUnaryCall): Buffer {
  if (!PATH.test(call.path)) throw unsendable(`the path ${JSON.stringify(call.path)}`);
  let head = `POST ${call.path}${endpoint.fixedHead}content-length: ${5 + call.message.length}\r\n`;
  if (call.timeoutMs !== undefined) head += `grpc-timeout: ${Math.max(1, Math.ceil(call.timeoutMs))}m\r\n`;
  for (const name in call.headers) {
    const value = call.headers[name]!;
    if (!HEADER_NAME.test(name) || !HEADER_VALUE.test(value)) throw unsendable(`the header ${JSON.stringify(name)}`);
    if (!PROTOCOL_HEADERS.has(name.toLowerCase())) head += `${name}: ${value}\r\n`;
  }
  head += "\r\n";
  const request = Buffer.allocUnsafe(head.length + 5 + call.message.length);
  const at = request.write(head, 0, "latin1");
  request[at] = 0;
  request.writeUInt32BE(call.message.length, at + 1);
  request.set(call.message, at + 5);
  return request;
}

function unsendable(what: string): ConnectError {
  return new ConnectError(`${what} cannot be sent in an HTTP/1.1 request`, Code.Internal);
}

const noStop = () => {};
