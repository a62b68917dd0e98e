// Where svc's error model meets connect's, both ways. On the way out, whatever a handler threw
// leaves as a ConnectError with its SvcError's code and message; on the way in, what connect
// raised (a peer's status, a dropped connection, an aborted signal) becomes a SvcError with the
// same code. The numbers are the same on both sides: both are gRPC's status codes.
import { ConnectError } from "@connectrpc/connect";
import { SvcError } from "../../../../core/index.js";

/** Anything a handler threw, as the ConnectError the client receives. */
export function toConnectError(thrown: unknown): ConnectError {
  if (thrown instanceof ConnectError) return thrown;
  const error = SvcError.from(thrown);
  return new ConnectError(error.message, error.code, undefined, undefined, error);
}

/**
 * What connect raised (or anything else, as connect would see it), as a SvcError with its code;
 * `emptyMessage` stands in when the error has no message. A SvcError is kept as it is.
 */
export function fromConnectError(thrown: unknown, emptyMessage = ""): SvcError {
  if (thrown instanceof SvcError) return thrown;
  const error = ConnectError.from(thrown);
  return new SvcError(error.code, error.rawMessage || emptyMessage, error);
}
