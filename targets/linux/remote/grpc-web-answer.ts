// One gRPC-web answer read off an HTTP/1.1 connection as its bytes arrive: the status line and
// headers (names in any case), then the body by content-length, by chunked transfer-encoding, or
// until the connection ends, and in it the gRPC-web frames (grpc-web-frames.ts). Its outcome is
// read as rawUnary reads an HTTP/2 answer: the trailers' grpc-status (or the headers' in a
// trailers-only answer) with its percent-decoded message; without one, the HTTP status by gRPC's
// mapping; a success must carry exactly one uncompressed message (INTERNAL otherwise).
// Everything is bounded: the header section and any trailer section to 64 KiB, a chunk-size line
// to 1 KiB, the messages to the call's bound. An answer that is not HTTP/1.x, a 415, or a 200 that
// is not gRPC-web says the peer does not speak gRPC-web (not-grpc-web.ts).
import { ConnectError } from "@connectrpc/connect";
import { Code } from "../../../core/index.js";
import { framesRead, readFrames, startFrames, type FrameReading } from "./grpc-web-frames.js";
import { notGrpcWebError } from "./not-grpc-web.js";
import { decodeMessage, httpStatusCode, statusCode } from "./raw-unary.js";

/** Largest header section (status line and headers) taken, and largest chunked trailer section. */
export const MAX_HEAD_BYTES = 64 * 1024;
const MAX_CHUNK_LINE_BYTES = 1024;

export interface Answered {
  /** The message's bytes, or the peer's status as an error. */
  readonly outcome: Uint8Array | ConnectError;
  /** Whether the connection may carry another call. */
  readonly keepAlive: boolean;
}

export interface GrpcWebAnswer {
  /** Takes the next bytes; the answer once it is whole. Throws a ConnectError when they break HTTP/1.1, gRPC-web or a bound. */
  push(bytes: Buffer): Answered | undefined;
  /** The connection ended: the answer when its body ran to the end of the connection, else undefined. */
  end(): Answered | undefined;
}

type Phase = "head" | "length" | "size" | "chunk" | "chunk-end" | "trailers" | "close" | "done";

interface Reading {
  readonly peer: string;
  readonly frames: FrameReading;
  phase: Phase;
  /** Where reading is in the bytes being read. */
  at: number;
  /** The start of a header section or line that has not ended yet. */
  held: Buffer[];
  heldBytes: number;
  /** Whether the answer's first bytes were seen to be HTTP/1.x. */
  looked: boolean;
  status: number;
  keepAlive: boolean;
  grpcStatus: string | undefined;
  grpcMessage: string | undefined;
  /** Body (or chunk, or CRLF) bytes still to come. */
  left: number;
  /** An outcome the header section alone decided. */
  decided: ConnectError | undefined;
}

const CR = 0x0d;
const LF = 0x0a;
const CRLF = Buffer.from("\r\n", "latin1");
const HEAD_END = Buffer.from("\r\n\r\n", "latin1");
const HTTP1 = Buffer.from("HTTP/1.", "latin1");
/** The first letters of the fields read: content-*, connection, grpc-*, transfer-encoding; grpc-* in trailers. */
const HEAD_INITIALS = ["c", "g", "t"].map((c) => c.charCodeAt(0));
const TRAILER_INITIALS = ["g".charCodeAt(0)];

/** Reads one answer of `peer`, whose messages may hold `maxAnswerBytes` together. */
export function createGrpcWebAnswer(peer: string, maxAnswerBytes: number): GrpcWebAnswer {
  const r: Reading = {
    peer,
    frames: startFrames(peer, maxAnswerBytes),
    phase: "head",
    at: 0,
    held: [],
    heldBytes: 0,
    looked: false,
    status: 0,
    keepAlive: false,
    grpcStatus: undefined,
    grpcMessage: undefined,
    left: 0,
    decided: undefined,
  };
  return {
    push(bytes) {
      r.at = 0;
      while (r.at < bytes.length && r.phase !== "done") steps[r.phase](r, bytes);
      if (r.phase !== "done") return undefined;
      // Bytes past the answer: nothing was asked for them, so the connection is not trusted again.
      if (r.at < bytes.length) r.keepAlive = false;
      return outcome(r);
    },
    end() {
      if (r.phase !== "close") return undefined;
      r.phase = "done";
      return outcome(r);
    },
  };
}

const steps: Record<Exclude<Phase, "done">, (r: Reading, bytes: Buffer) => void> = {
  head: readHead,
  length(r, bytes) {
    const take = Math.min(r.left, bytes.length - r.at);
    readFrames(r.frames, bytes, r.at, r.at + take);
    r.at += take;
    r.left -= take;
    if (r.left === 0) r.phase = "done";
  },
  size(r, bytes) {
    const line = lineOf(r, bytes);
    if (line === undefined) return;
    const [text, start, end] = line;
    r.left = chunkSize(text, start, end);
    if (r.left < 0) throw broken(r, `a chunk size that is not one (${JSON.stringify(text.toString("latin1", start, Math.min(end, start + 16)))})`);
    if (r.left > 0) return void (r.phase = "chunk");
    // The last chunk, and its trailer section: most often none, only the empty line that ends it.
    if (bytes[r.at] === CR && bytes[r.at + 1] === LF && r.heldBytes === 0) {
      r.at += 2;
      r.phase = "done";
      return;
    }
    // The last chunk-size line's CRLF begins the trailer section, which ends at an empty line.
    r.phase = "trailers";
    r.held.push(CRLF);
    r.heldBytes = CRLF.length;
  },
  chunk(r, bytes) {
    steps.length(r, bytes);
    if (r.phase !== "done") return;
    r.phase = "chunk-end";
    r.left = CRLF.length;
  },
  "chunk-end"(r, bytes) {
    for (; r.left > 0 && r.at < bytes.length; r.left--, r.at++) {
      if (bytes[r.at] !== CRLF[CRLF.length - r.left]) throw broken(r, "a chunk not ended by CRLF");
    }
    if (r.left === 0) r.phase = "size";
  },
  trailers(r, bytes) {
    if (until(r, bytes, HEAD_END, MAX_HEAD_BYTES, () => tooLarge(r, "a trailer section")) !== undefined) r.phase = "done";
  },
  close(r, bytes) {
    readFrames(r.frames, bytes, r.at, bytes.length);
    r.at = bytes.length;
  },
};

function readHead(r: Reading, bytes: Buffer): void {
  if (!r.looked && !looksLikeHttp1(r, bytes)) throw notGrpcWebError(`${r.peer} did not answer in HTTP/1.1 (it may speak HTTP/2 only)`);
  // Most often the whole header section is in one piece: read it where it lies.
  const end = r.heldBytes === 0 ? bytes.indexOf(HEAD_END, r.at) : -1;
  if (end >= 0 && end + HEAD_END.length - r.at <= MAX_HEAD_BYTES) {
    const text = bytes.toString("latin1", r.at, end + CRLF.length);
    r.at = end + HEAD_END.length;
    return takeHead(r, text);
  }
  const head = until(r, bytes, HEAD_END, MAX_HEAD_BYTES, () => tooLarge(r, "a header section"));
  if (head !== undefined) takeHead(r, head.toString("latin1"));
}

/** Whether the answer's first bytes so far agree with "HTTP/1."; notes when all of them have come. */
function looksLikeHttp1(r: Reading, bytes: Buffer): boolean {
  let seen = 0;
  for (const piece of r.held) {
    for (let i = 0; i < piece.length && seen < HTTP1.length; i++, seen++) if (piece[i] !== HTTP1[seen]) return false;
  }
  for (let i = r.at; i < bytes.length && seen < HTTP1.length; i++, seen++) if (bytes[i] !== HTTP1[seen]) return false;
  r.looked = seen === HTTP1.length;
  return true;
}

/** A chunk-size line: where it lies (without its CRLF), in this piece or gathered from several; undefined until it has come. */
function lineOf(r: Reading, bytes: Buffer): [Buffer, number, number] | undefined {
  const end = r.heldBytes === 0 ? bytes.indexOf(LF, r.at) : -1;
  if (end > r.at && end - r.at <= MAX_CHUNK_LINE_BYTES && bytes[end - 1] === CR) {
    const start = r.at;
    r.at = end + 1;
    return [bytes, start, end - 1];
  }
  const line = until(r, bytes, CRLF, MAX_CHUNK_LINE_BYTES, () => broken(r, "a chunk-size line over 1 KiB"));
  return line === undefined ? undefined : [line, 0, line.length - CRLF.length];
}

/** The size a chunk-size line gives (hex digits, then any extension after ';'), or -1 when it gives none. */
function chunkSize(line: Buffer, start: number, end: number): number {
  let size = 0;
  let digits = 0;
  for (let i = start; i < end; i++) {
    const c = line[i]!;
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66 ? (c | 0x20) - 0x57 : -1;
    if (digit < 0) {
      if (c === 0x3b || c === 0x20 || c === 0x09) break;
      return -1;
    }
    if (++digits > 8) return -1;
    size = size * 16 + digit;
  }
  return digits === 0 ? -1 : size;
}

function takeHead(r: Reading, text: string): void {
  const lineEnd = text.indexOf("\r\n");
  const statusLine = /^HTTP\/1\.([01]) (\d{3})(?: |\r)/.exec(text);
  if (statusLine === null) throw notGrpcWebError(`${r.peer} answered a status line that is not HTTP/1.1`);
  const status = Number(statusLine[2]);
  // An interim answer (100 Continue): the real one follows.
  if (status >= 100 && status < 200 && status !== 101) return;
  if (status === 101) throw notGrpcWebError(`${r.peer} answered by switching protocols`);
  if (status === 415) throw notGrpcWebError(`${r.peer} answered HTTP 415: it does not take gRPC-web`);
  const head = headFields(r, text, lineEnd + 2);
  r.status = status;
  r.keepAlive = statusLine[1] === "1" ? !head.close : head.keepAlive;
  if (r.grpcStatus === undefined && !isGrpcWeb(head.contentType)) {
    if (status === 200) throw notGrpcWebError(`${r.peer} answered ${head.contentType ? `content-type ${head.contentType}` : "without a content-type"}, not gRPC-web`);
    // An HTTP error with nothing of gRPC in it: the status says it all, the body is not read.
    r.decided = new ConnectError(`${r.peer} answered HTTP ${status}`, httpStatusCode(status));
    r.keepAlive = false;
    r.phase = "done";
  } else if (status === 204 || status === 304) {
    r.phase = "done";
  } else if (head.chunked) {
    // A length beside chunked is ignored, and such a connection is not trusted again (RFC 9112 6.3).
    if (head.contentLength !== undefined) r.keepAlive = false;
    r.phase = "size";
  } else if (head.contentLength !== undefined) {
    r.left = head.contentLength;
    r.phase = r.left === 0 ? "done" : "length";
  } else {
    r.keepAlive = false;
    r.phase = "close";
  }
}

interface HeadFields {
  contentType: string;
  contentLength: number | undefined;
  chunked: boolean;
  close: boolean;
  keepAlive: boolean;
}

/** The header fields after the status line that matter here; the gRPC ones go straight to `r`. */
function headFields(r: Reading, text: string, from: number): HeadFields {
  const head: HeadFields = { contentType: "", contentLength: undefined, chunked: false, close: false, keepAlive: false };
  eachField(text, from, HEAD_INITIALS, (name, value) => {
    if (name === "content-type") head.contentType = value.toLowerCase();
    else if (name === "grpc-status") r.grpcStatus = value;
    else if (name === "grpc-message") r.grpcMessage = value;
    else if (name === "connection") {
      const tokens = value.toLowerCase();
      head.close ||= hasToken(tokens, "close");
      head.keepAlive ||= hasToken(tokens, "keep-alive");
    } else if (name === "content-length") {
      const length = /^\d{1,15}$/.test(value) ? Number(value) : NaN;
      if (Number.isNaN(length) || (head.contentLength !== undefined && head.contentLength !== length)) throw broken(r, `a content-length that is not one (${JSON.stringify(value.slice(0, 32))})`);
      head.contentLength = length;
    } else if (name === "transfer-encoding") {
      const codings = value.toLowerCase();
      if (codings !== "chunked" && codings.split(",").some((c) => c.trim() !== "chunked")) throw broken(r, `transfer-encoding ${JSON.stringify(value.slice(0, 64))}, which was not asked for`);
      head.chunked = true;
    }
  });
  return head;
}

/** Whether a comma-separated list (in lower case) holds `token`. */
function hasToken(list: string, token: string): boolean {
  return list === token || (list.includes(",") && list.split(",").some((t) => t.trim() === token));
}

/**
 * Calls `visit` with each "name: value" line of `text` from `from` on whose name begins with one of
 * `initials` (lower-case letters' codes), the name in lower case. The other lines, most of a head
 * (date, keep-alive, request ids), are passed over without being cut out of the text.
 */
function eachField(text: string, from: number, initials: readonly number[], visit: (name: string, value: string) => void): void {
  for (let at = from; at < text.length; ) {
    let end = text.indexOf("\n", at);
    if (end < 0) end = text.length;
    if (initials.includes(text.charCodeAt(at) | 0x20)) {
      const colon = text.indexOf(":", at);
      if (colon > at && colon < end) visit(text.slice(at, colon).trim().toLowerCase(), text.slice(colon + 1, end).trim());
    }
    at = end + 1;
  }
}

function isGrpcWeb(contentType: string): boolean {
  return contentType === "application/grpc-web" || contentType.startsWith("application/grpc-web+") || contentType.startsWith("application/grpc-web;");
}

/**
 * Takes bytes from `r.at` until `mark`: the whole run with the mark once it has come (what came in
 * earlier pieces included), else keeps what came and returns undefined. Only the newest bytes are
 * searched, so a run that arrives a byte at a time costs no more than one that arrives at once.
 */
function until(r: Reading, bytes: Buffer, mark: Buffer, bound: number, overBound: () => ConnectError): Buffer | undefined {
  const fresh = bytes.subarray(r.at);
  const carried = r.heldBytes === 0 ? undefined : tailOf(r.held, mark.length - 1);
  const window = carried === undefined ? fresh : Buffer.concat([carried, fresh]);
  const found = window.indexOf(mark);
  const taken = found < 0 ? fresh.length : found + mark.length - (carried?.length ?? 0);
  if (r.heldBytes + taken > bound) throw overBound();
  if (found < 0) {
    r.held.push(fresh);
    r.heldBytes += fresh.length;
    r.at = bytes.length;
    return undefined;
  }
  const piece = fresh.subarray(0, taken);
  const run = r.heldBytes === 0 ? piece : Buffer.concat([...r.held, piece]);
  r.held = [];
  r.heldBytes = 0;
  r.at += taken;
  return run;
}

function tailOf(pieces: Buffer[], length: number): Buffer {
  const last = Buffer.concat(pieces.slice(-length));
  return last.subarray(Math.max(0, last.length - length));
}

function outcome(r: Reading): Answered {
  if (r.decided !== undefined) return { outcome: r.decided, keepAlive: r.keepAlive };
  const read = framesRead(r.frames);
  let status = r.grpcStatus;
  let message = r.grpcMessage;
  if (read.trailer !== undefined) {
    let trailerStatus: string | undefined;
    let trailerMessage: string | undefined;
    eachField(read.trailer, 0, TRAILER_INITIALS, (name, value) => {
      if (name === "grpc-status") trailerStatus = value;
      else if (name === "grpc-message") trailerMessage = value;
    });
    if (trailerStatus !== undefined) [status, message] = [trailerStatus, trailerMessage];
  }
  return { outcome: outcomeOf(r, status, message, read.message), keepAlive: r.keepAlive };
}

function outcomeOf(r: Reading, status: string | undefined, message: string | undefined, body: Uint8Array | undefined): Uint8Array | ConnectError {
  if (status === undefined && r.status !== 200) return new ConnectError(`${r.peer} answered HTTP ${r.status}`, httpStatusCode(r.status));
  if (status === undefined) return new ConnectError(`${r.peer} answered without a gRPC status`, Code.Internal);
  if (status !== "0") return new ConnectError(decodeMessage(message ?? ""), statusCode(status));
  if (body === undefined) return new ConnectError(`${r.peer}'s answer is not one uncompressed gRPC message`, Code.Internal);
  return body;
}

function broken(r: Reading, what: string): ConnectError {
  return new ConnectError(`${r.peer} answered ${what}`, Code.Internal);
}

function tooLarge(r: Reading, what: string): ConnectError {
  return new ConnectError(`${r.peer} answered ${what} over ${MAX_HEAD_BYTES / 1024} KiB`, Code.ResourceExhausted);
}
