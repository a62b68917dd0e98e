// The wire as the hand-made clients (curl, raw sockets) see it, read without any RPC library:
// length-prefixed frames, the gRPC status in trailers (HTTP/2), in a trailer frame or trailers-only
// headers (gRPC-web), a Connect error as a JSON body or an end-of-stream frame. What a real client
// would make of an answer without a status (a bare HTTP error) follows the gRPC spec's mapping.
import { create, fromBinary, toBinary, toJson, type DescMessage, type JsonValue } from "@bufbuild/protobuf";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import { codeFromString } from "@connectrpc/connect/protocol-connect";
import { codeFromHttpStatus } from "@connectrpc/connect/protocol-grpc";
import type { AnyMethod, WireCall, WireOutcome, WireProtocol } from "./wire-client.js";

/** The request message's bytes. */
export function requestBytes(call: WireCall): Uint8Array {
  return toBinary(call.method.input, create(call.method.input, call.request));
}

/** One length-prefixed message: flags, a 4-byte big-endian length (which may lie), the data. */
export function frame(data: Uint8Array, options: { flags?: number; declaredLength?: number } = {}): Uint8Array {
  const out = new Uint8Array(5 + data.length);
  out[0] = options.flags ?? 0;
  new DataView(out.buffer).setUint32(1, options.declaredLength ?? data.length);
  out.set(data, 5);
  return out;
}

/** The body a client of `protocol` sends for `call`: the bare message for Connect unary, else one frame. */
export function requestBody(protocol: WireProtocol, call: WireCall): Uint8Array {
  const bytes = requestBytes(call);
  return protocol === "connect" && call.method.methodKind === "unary" ? bytes : frame(bytes);
}

/** The request headers of a call in `protocol` (content type, deadline, the call's own metadata). */
export function requestHeaders(protocol: WireProtocol, call: Pick<WireCall, "method" | "headers" | "timeoutMs">): Record<string, string> {
  const unary = call.method.methodKind === "unary";
  const headers: Record<string, string> = {};
  if (protocol === "grpc") {
    headers["content-type"] = "application/grpc+proto";
    headers.te = "trailers";
  } else if (protocol === "grpc-web") {
    headers["content-type"] = "application/grpc-web+proto";
    headers["x-grpc-web"] = "1";
  } else {
    headers["content-type"] = unary ? "application/proto" : "application/connect+proto";
    headers["connect-protocol-version"] = "1";
  }
  if (call.timeoutMs !== undefined) {
    if (protocol === "connect") headers["connect-timeout-ms"] = String(call.timeoutMs);
    else headers["grpc-timeout"] = `${call.timeoutMs}m`;
  }
  return { ...headers, ...call.headers };
}

/** An HTTP answer as it came off the wire. */
export interface HttpAnswer {
  readonly status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly trailers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

/** What a client of `protocol` makes of `answer` to a call of `method`. */
export function decodeAnswer(protocol: WireProtocol, method: AnyMethod, answer: HttpAnswer): WireOutcome {
  if (protocol === "connect") {
    return method.methodKind === "unary" ? connectUnary(method, answer) : connectStream(method, answer);
  }
  const { frames, rest } = splitFrames(answer.body);
  const messages = frames.filter((f) => (f.flags & 0x80) === 0);
  const trailerFrame = frames.find((f) => (f.flags & 0x80) !== 0);
  const trailers = { ...answer.trailers, ...(trailerFrame ? headerLines(new TextDecoder().decode(trailerFrame.data)) : {}) };
  const metadata = { ...answer.headers, ...trailers };
  const statusText = trailers["grpc-status"] ?? answer.headers["grpc-status"];
  if (statusText === undefined) {
    const code = answer.status === 200 ? 2 : codeFromHttpStatus(answer.status);
    return { code, message: `HTTP ${answer.status} without grpc-status`, metadata, details: [], httpStatus: answer.status };
  }
  const code = Number(statusText);
  const message = percentDecoded(trailers["grpc-message"] ?? answer.headers["grpc-message"] ?? "");
  const details = statusDetails(trailers["grpc-status-details-bin"] ?? answer.headers["grpc-status-details-bin"]);
  const values = messages.map((m) => messageJson(method.output, m.data));
  if (rest.length > 0) {
    return { code: 13, message: `the answer ends inside a frame (${rest.length} bytes)`, metadata, details, httpStatus: answer.status };
  }
  return {
    code,
    message,
    ...(code === 0 && method.methodKind === "unary" ? { value: values[0] } : {}),
    ...(method.methodKind === "server_streaming" ? { messages: values } : {}),
    metadata,
    details,
    httpStatus: answer.status,
  };
}

function connectUnary(method: AnyMethod, answer: HttpAnswer): WireOutcome {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(answer.headers)) metadata[key.replace(/^trailer-/, "")] = value;
  const json = (answer.headers["content-type"] ?? "").startsWith("application/json");
  if (answer.status === 200 && !json) {
    return { code: 0, message: "", value: messageJson(method.output, answer.body), metadata, details: [], httpStatus: 200 };
  }
  const error = json ? parseJson(answer.body) : undefined;
  return { ...connectError(error, answer.status), metadata, httpStatus: answer.status };
}

function connectStream(method: AnyMethod, answer: HttpAnswer): WireOutcome {
  const metadata: Record<string, string> = { ...answer.headers };
  if (answer.status !== 200) {
    const error = (answer.headers["content-type"] ?? "").startsWith("application/json") ? parseJson(answer.body) : undefined;
    return { ...connectError(error, answer.status), metadata, httpStatus: answer.status };
  }
  const { frames } = splitFrames(answer.body);
  const end = frames.find((f) => (f.flags & 0x02) !== 0);
  const messages = frames.filter((f) => (f.flags & 0x02) === 0).map((f) => messageJson(method.output, f.data));
  if (!end) return { code: 2, message: "the stream ended without an end-of-stream frame", messages, metadata, details: [], httpStatus: 200 };
  const endJson = parseJson(end.data) as { error?: unknown; metadata?: Record<string, string[]> } | undefined;
  for (const [key, values] of Object.entries(endJson?.metadata ?? {})) metadata[key] = values.join(", ");
  if (endJson?.error === undefined) return { code: 0, message: "", messages, metadata, details: [], httpStatus: 200 };
  return { ...connectError(endJson.error, 200), messages, metadata, httpStatus: 200 };
}

function connectError(error: unknown, httpStatus: number): { code: number; message: string; details: string[] } {
  const e = (error ?? {}) as { code?: unknown; message?: unknown; details?: Array<{ type?: string }> };
  const code = typeof e.code === "string" ? codeFromString(e.code) : undefined;
  return {
    code: code ?? codeFromHttpStatus(httpStatus),
    message: typeof e.message === "string" ? e.message : code === undefined ? `HTTP ${httpStatus} without a Connect error` : "",
    details: (e.details ?? []).map((d) => String(d.type)),
  };
}

/** Frames in `body`, and what is left after the last whole one. */
export function splitFrames(body: Uint8Array): { frames: Array<{ flags: number; data: Uint8Array }>; rest: Uint8Array } {
  const frames: Array<{ flags: number; data: Uint8Array }> = [];
  let at = 0;
  while (body.length - at >= 5) {
    const length = new DataView(body.buffer, body.byteOffset + at + 1, 4).getUint32(0);
    if (body.length - at - 5 < length) break;
    frames.push({ flags: body[at]!, data: body.subarray(at + 5, at + 5 + length) });
    at += 5 + length;
  }
  return { frames, rest: body.subarray(at) };
}

/** "name: value" lines (HTTP/1.1 headers, a gRPC-web trailer frame), names lower-cased. */
export function headerLines(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    out[name] = name in out ? `${out[name]}, ${value}` : value;
  }
  return out;
}

function messageJson(schema: DescMessage, bytes: Uint8Array): JsonValue {
  try {
    return toJson(schema, fromBinary(schema, bytes));
  } catch (error) {
    return { undecodable: String(error) };
  }
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

// grpc-message is percent-encoded (only what needs it); a client shows it decoded.
function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The detail type names in a grpc-status-details-bin value (a base64 google.rpc.Status). */
export function statusDetails(header: string | undefined): string[] {
  if (header === undefined) return [];
  const reader = new BinaryReader(Buffer.from(header, "base64"));
  const types: string[] = [];
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    if (field !== 3) {
      reader.skip(wireType);
      continue;
    }
    const any = new BinaryReader(reader.bytes());
    while (any.pos < any.len) {
      const [anyField, anyWireType] = any.tag();
      if (anyField === 1) types.push(any.string().replace(/^.*\//, ""));
      else any.skip(anyWireType);
    }
  }
  return types;
}
