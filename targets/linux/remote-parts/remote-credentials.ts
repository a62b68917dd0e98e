// How svc-server signs in to a remote part that asks for credentials: proto.rpc.v1.AuthService/
// Authenticate with the configured entity and API key, then `authorization: Bearer <token>` on
// every call. A call the remote refuses as UNAUTHENTICATED (the token expired, the remote
// restarted with new keys) signs in again once, shared by the calls refused meanwhile, and is
// made again. A remote without credentials configured is called without any.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { ConnectError } from "@connectrpc/connect";
import { Code, type RemoteAuth } from "../../../core/index.js";
import { AuthenticateRequestSchema, AuthenticateResponseSchema, AuthService } from "../../../proto/gen/proto/rpc/v1/auth_pb.js";
import type { RawUnaryCall } from "../remote/index.js";

const authenticatePath = `/${AuthService.typeName}/${AuthService.method.authenticate.name}`;
/** A token is a few hundred bytes; nothing larger is read. */
const MAX_TOKEN_ANSWER_BYTES = 64 * 1024;

export interface RemoteCredentialsOptions {
  readonly auth: RemoteAuth | undefined;
  /** One call as bytes to the remote. */
  readonly send: (call: RawUnaryCall) => Promise<Uint8Array>;
  /** A signal that ends a sign-in taking too long (made for each). */
  readonly deadline: () => AbortSignal;
}

export interface RemoteCredentials {
  /** The headers a call carries: none until signed in, or without credentials. */
  headers(): Readonly<Record<string, string>> | undefined;
  /** Signs in (again); rejects with the remote's refusal. */
  signIn(): Promise<void>;
  /** Makes `call` with the headers (with `send`, or the one given at first), signing in first when needed and again once when the token is refused. */
  withToken(call: RawUnaryCall, send?: (call: RawUnaryCall) => Promise<Uint8Array>): Promise<Uint8Array>;
  /** Forgets the token: the next call signs in again. */
  forget(): void;
}

export function createRemoteCredentials(options: RemoteCredentialsOptions): RemoteCredentials {
  const { auth, send } = options;
  const request = auth && toBinary(AuthenticateRequestSchema, create(AuthenticateRequestSchema, { entity: auth.entity, credentials: auth.credentials }));
  let headers: Record<string, string> | undefined;
  let signingIn: Promise<void> | undefined;

  async function authenticate(message: Uint8Array): Promise<void> {
    headers = undefined;
    const answer = await send({ path: authenticatePath, message, cancel: options.deadline(), maxAnswerBytes: MAX_TOKEN_ANSWER_BYTES });
    const token = fromBinary(AuthenticateResponseSchema, answer).accessToken;
    if (token === "") throw new ConnectError("Authenticate answered without a token", Code.Unauthenticated);
    headers = { authorization: `Bearer ${token}` };
  }

  function signIn(): Promise<void> {
    if (request === undefined) return Promise.resolve();
    signingIn ??= authenticate(request).finally(() => (signingIn = undefined));
    return signingIn;
  }

  const withHeaders = (call: RawUnaryCall): RawUnaryCall => (headers ? { ...call, headers: { ...call.headers, ...headers } } : call);

  async function signedIn(call: RawUnaryCall, by: typeof send): Promise<Uint8Array> {
    if (headers === undefined) await signIn();
    try {
      return await by(withHeaders(call));
    } catch (thrown) {
      if (!(thrown instanceof ConnectError) || thrown.code !== Code.Unauthenticated) throw thrown;
      await signIn();
      return by(withHeaders(call));
    }
  }

  return {
    headers: () => headers,
    signIn,
    // Every call of a remote passes here: one without credentials goes straight through.
    withToken: (call, by = send) => (request === undefined ? by(call) : signedIn(call, by)),
    forget() {
      headers = undefined;
    },
  };
}
