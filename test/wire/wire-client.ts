// What every client of the wire-conformance suite offers, and what it reports. A case says what
// to call (a method, a request, headers, a deadline, when to abort) and judges what came back; a
// client carries the call over its own protocol and reports what its user would see: the status
// code, the message, the response as JSON, the metadata (response headers and trailers, merged as
// the client merges them), the error details. A call never throws: every failure is an outcome.
import type { DescMessage, DescMethodServerStreaming, DescMethodUnary, JsonValue, MessageInitShape } from "@bufbuild/protobuf";

export type WireProtocol = "grpc" | "grpc-web" | "connect";
export type HttpVersion = "1.1" | "2";

/** Where the server under test answers. */
export interface WireTarget {
  /** "http://127.0.0.1:PORT" */
  readonly url: string;
  /** "http://localhost:PORT": the SDK's direct dial wants a host containing "local". */
  readonly sdkHost: string;
}

export interface ApiKey {
  readonly id: string;
  readonly key: string;
}

export type AnyMethod = DescMethodUnary<DescMessage, DescMessage> | DescMethodServerStreaming<DescMessage, DescMessage>;

export interface WireCall {
  /** A method descriptor; it may name a method or service nobody serves (see phantom-method.ts). */
  readonly method: AnyMethod;
  readonly request: MessageInitShape<DescMessage>;
  /** Request metadata sent with the call. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The call's deadline, from when it is sent. */
  readonly timeoutMs?: number;
  /** The client abandons the call once this settles (the server hears it the client's way). */
  readonly abortWhen?: Promise<unknown>;
}

export interface WireOutcome {
  /** 0 for success, else the gRPC status code the client reports. */
  readonly code: number;
  /** The error message as the client reports it; "" on success. */
  readonly message: string;
  /** The response (unary) as protobuf JSON; undefined on failure. */
  readonly value?: JsonValue;
  /** Stream responses, as protobuf JSON, in order (server-streaming calls). */
  readonly messages?: readonly JsonValue[];
  /** Response headers and trailers as the client sees them, lower-case names. */
  readonly metadata: Readonly<Record<string, string>>;
  /** Error details (google.rpc.Status details) by type name. */
  readonly details: readonly string[];
  /** The HTTP status, for clients that see it (curl, raw sockets). */
  readonly httpStatus?: number;
}

/** A request body made by hand, for the clients that can send one. */
export interface RawRequest {
  /** The method called (its path, and its output to read the answer). */
  readonly method: AnyMethod;
  readonly body: Uint8Array;
  /** Extra request headers (grpc-encoding, a lying content-length...). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The client abandons the request once this settles. */
  readonly abortWhen?: Promise<unknown>;
}

/** What a client can be asked for beyond a plain unary call, each either possible or not. */
export type Capability =
  /** Server-streaming calls. */
  | "stream"
  /** Arbitrary request metadata (custom headers, `viam-sid`). */
  | "metadata"
  /** A call sent with no credentials at all to a server that wants them. */
  | "anonymous"
  /**
   * An answer the server gives before it has read the request body (a refusal, a method nobody
   * serves), which over HTTP/2 it follows with RST_STREAM(NO_ERROR) for the rest of the body.
   */
  | "early-answer"
  /** A deadline carried in grpc-timeout / connect-timeout-ms. */
  | "deadline"
  /** Abandoning a call in flight. */
  | "abort"
  /** An error's own status code and metadata, as the server sent them. */
  | "error-status"
  /** Request bodies made by hand: frames with lying lengths, flags, garbage. */
  | "raw";

export interface WireClient {
  unary(call: WireCall): Promise<WireOutcome>;
  stream(call: WireCall): Promise<WireOutcome>;
  /** Sends a body made by hand (for clients with the "raw" capability). */
  raw(request: RawRequest): Promise<WireOutcome>;
  close(): Promise<void>;
}

/**
 * What a client holds before its first call: an API key it trades for a token its own way
 * (AuthService/Authenticate; the SDK as it dials), or a token it sends as it is. When the trade
 * fails, every call's outcome is that failure, as the client's user would meet it.
 */
export type WireCredentials = { readonly apiKey: ApiKey } | { readonly token: string };

/** One row of the client table. */
export interface WireClientKind {
  /** Short and unique: it names the tests ("sdk gRPC-web", "curl gRPC"). */
  readonly name: string;
  readonly protocol: WireProtocol;
  readonly http: HttpVersion;
  /** Its requests carry a content-length (so a body too large is refused before it is read). */
  readonly declaresLength: boolean;
  /** What this client cannot express, and why: the table says so instead of skipping. */
  readonly cannot: Partial<Record<Capability, string>>;
  /** A client for `target`; it connects (the SDK dials) on its first call, never here. */
  open(target: WireTarget, credentials?: WireCredentials): WireClient;
}
