// A peer that does not speak gRPC-web over HTTP/1.1 (an HTTP/2-only server, a proxy that refuses
// the content type) is told apart from one that answered a call with an error: its refusal is
// UNIMPLEMENTED and marked, so the owner can call that peer over HTTP/2 instead.
import { ConnectError } from "@connectrpc/connect";
import { Code } from "../../../core/index.js";

interface Marked {
  readonly notGrpcWeb?: true;
}

/** The refusal of a peer that does not speak gRPC-web over HTTP/1.1, saying why it is thought so. */
export function notGrpcWebError(why: string, cause?: unknown): ConnectError {
  return Object.assign(new ConnectError(why, Code.Unimplemented, undefined, undefined, cause), { notGrpcWeb: true as const });
}

/** Whether a call failed because its peer does not speak gRPC-web over HTTP/1.1 (rather than with the peer's own status). */
export function notGrpcWeb(thrown: unknown): boolean {
  return thrown instanceof ConnectError && (thrown as Marked).notGrpcWeb === true;
}
