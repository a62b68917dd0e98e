// The pieces every client shares in reporting what it saw: headers as a plain record, the types
// of an error's details, an abandoned call, and a token obtained once before the first call.
import type { JsonValue } from "@bufbuild/protobuf";
import { AuthService } from "../../../proto/gen/proto/rpc/v1/auth_pb.js";
import { requestBody, requestHeaders } from "../wire-codec.js";
import type { AnyMethod, RawRequest, WireCall, WireClient, WireCredentials, WireOutcome, WireProtocol } from "../wire-client.js";

/** Headers (one Headers, or several merged, later ones winning) as lower-case name -> value. */
export function headerRecord(...all: Array<Headers | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const headers of all) headers?.forEach((value, key) => (out[key.toLowerCase()] = value));
  return out;
}

/** The detail type names of a connect error (v1 or v2: both keep `type` on an incoming detail). */
export function detailTypes(details: ReadonlyArray<unknown>): string[] {
  return details.map((d) => {
    const detail = d as { type?: string; desc?: { typeName: string }; $typeName?: string };
    return detail.type ?? detail.desc?.typeName ?? detail.$typeName ?? "?";
  });
}

/** What a client that abandons a call (kills curl, drops its socket) reports for it. */
export const abandoned: WireOutcome = { code: 1, message: "the client abandoned the call", metadata: {}, details: [] };

/** A hand-made client's connection failed without an answer: UNAVAILABLE, as a gRPC client reports it. */
export function transportFailure(why: string): WireOutcome {
  return { code: 14, message: why, metadata: {}, details: [] };
}

/** The Authenticate call that trades an API key for a token. */
export function authenticateCall(apiKey: { id: string; key: string }): WireCall {
  return {
    method: AuthService.method.authenticate,
    request: { entity: apiKey.id, credentials: { type: "api-key", payload: apiKey.key } },
  };
}

/** The headers a client's calls carry, or why it has none to send. */
export type Bearer = { headers: Record<string, string> } | { failure: WireOutcome };

/**
 * The authorization a client's calls carry, settled once on first use: nothing, the token as
 * given, or the token Authenticate answers (sent through the client's own `unary`). A failed
 * trade is the outcome of every call.
 */
export function createBearer(
  credentials: WireCredentials | undefined,
  unary: (call: WireCall) => Promise<WireOutcome>,
): () => Promise<Bearer> {
  let settled: Promise<Bearer> | undefined;
  const settle = async (): Promise<Bearer> => {
    if (!credentials) return { headers: {} };
    if ("token" in credentials) return { headers: { authorization: `Bearer ${credentials.token}` } };
    const outcome = await unary(authenticateCall(credentials.apiKey));
    if (outcome.code !== 0) return { failure: outcome };
    const token = (outcome.value as { accessToken?: JsonValue } | undefined)?.accessToken;
    return { headers: { authorization: `Bearer ${String(token)}` } };
  };
  return () => (settled ??= settle());
}

/** Sends one request made by hand; what a hand-made client supplies. */
export type SendBytes = (method: AnyMethod, headers: Record<string, string>, body: Uint8Array, abortWhen?: Promise<unknown>) => Promise<WireOutcome>;

/**
 * The calls of a client that writes its requests by hand (curl, a bare socket): each call's
 * headers and body in `protocol`, with the client's authorization, through `send`.
 */
export function handMadeCalls(
  protocol: WireProtocol,
  credentials: WireCredentials | undefined,
  send: SendBytes,
): Pick<WireClient, "unary" | "stream" | "raw"> {
  const plain = (call: WireCall, auth: Record<string, string>) =>
    send(call.method, { ...requestHeaders(protocol, call), ...auth }, requestBody(protocol, call), call.abortWhen);
  const bearer = createBearer(credentials, (call) => plain(call, {}));
  const withBearer = async (run: (auth: Record<string, string>) => Promise<WireOutcome>) => {
    const auth = await bearer();
    return "failure" in auth ? auth.failure : run(auth.headers);
  };
  return {
    unary: (call) => withBearer((auth) => plain(call, auth)),
    stream: (call) => withBearer((auth) => plain(call, auth)),
    raw: (raw: RawRequest) =>
      withBearer((auth) => send(raw.method, { ...requestHeaders(protocol, raw), ...auth, ...raw.headers }, raw.body, raw.abortWhen)),
  };
}
