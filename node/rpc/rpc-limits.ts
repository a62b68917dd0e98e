// The bounds an RPC port holds a call's request to, and the error a caller hears when it breaks
// one. Each program fills them from its own settings: svc-server's message size is
// `network.max_message_bytes`, svc-cloud's is fixed.
import { ConnectError } from "@connectrpc/connect";
import { Code } from "../../core/index.js";

export interface RpcLimits {
  /** Largest request or response message; a unary request's whole body is held to it. */
  readonly maxMessageBytes: number;
  /** Largest body of a call that needs no credentials (Authenticate), which anyone may send. */
  readonly openMethodMaxBytes: number;
  /** The setting that changes `maxMessageBytes`, named when a message is too large; none when fixed. */
  readonly messageSizeSetting?: string;
}

/** Which limit a body is held to: a message's, and whether that is the one for calls without credentials. */
export interface BodyLimit {
  readonly maxMessageBytes: number;
  readonly open: boolean;
  readonly messageSizeSetting?: string;
}

/**
 * RESOURCE_EXHAUSTED for a request larger than a limit: `size` says how large ("request message
 * of 40000000 bytes"); the limit for calls made without credentials is one no setting changes.
 */
export function tooLarge(size: string, limit: BodyLimit): ConnectError {
  const which = limit.open
    ? `the ${limit.maxMessageBytes}-byte limit for calls made without credentials`
    : `the ${limit.maxMessageBytes}-byte message limit${limit.messageSizeSetting ? ` (${limit.messageSizeSetting} changes it)` : ""}`;
  return new ConnectError(`${size} is larger than ${which}`, Code.ResourceExhausted);
}
