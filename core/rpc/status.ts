// The one error model of the API: a gRPC status code, a message for people, and the cause.
// Handlers throw RpcError; anything else thrown is folded in by `RpcError.from`, so the
// transports (connect on Linux, the XS dispatcher on the MCU) only ever translate one type.
import { ComponentError } from "../components/component-error.js";
import { IOError } from "../../hal/io.js";

/** gRPC status codes, with their wire numbers. */
export const Code = {
  Canceled: 1,
  Unknown: 2,
  InvalidArgument: 3,
  DeadlineExceeded: 4,
  NotFound: 5,
  AlreadyExists: 6,
  PermissionDenied: 7,
  ResourceExhausted: 8,
  FailedPrecondition: 9,
  Aborted: 10,
  OutOfRange: 11,
  Unimplemented: 12,
  Internal: 13,
  Unavailable: 14,
  DataLoss: 15,
  Unauthenticated: 16,
} as const;

export type Code = (typeof Code)[keyof typeof Code];

const componentCodes: Record<ComponentError["code"], Code> = {
  invalid_argument: Code.InvalidArgument,
  not_found: Code.NotFound,
  unimplemented: Code.Unimplemented,
  unavailable: Code.Unavailable,
};

const ioCodes: Record<IOError["code"], Code> = {
  busy: Code.FailedPrecondition,
  unsupported: Code.Unimplemented,
  io: Code.Unavailable,
  closed: Code.Unavailable,
  invalid: Code.InvalidArgument,
};

export class RpcError extends Error {
  override name = "RpcError";
  readonly code: Code;

  constructor(code: Code, message: string, cause?: unknown) {
    super(message);
    this.code = code;
    // `cause` as ES2022 defines it; set by hand because the core compiles against ES2020.
    if (cause !== undefined) Object.defineProperty(this, "cause", { value: cause, configurable: true, writable: true });
  }

  /** Whatever was thrown, as an RpcError with the code it deserves (Unknown when none fits). */
  static from(thrown: unknown): RpcError {
    if (thrown instanceof RpcError) return thrown;
    if (thrown instanceof ComponentError) return new RpcError(componentCodes[thrown.code], thrown.message, thrown);
    if (thrown instanceof IOError) return new RpcError(ioCodes[thrown.code], thrown.message, thrown);
    if (thrown instanceof Error) return new RpcError(Code.Unknown, thrown.message || thrown.name, thrown);
    return new RpcError(Code.Unknown, String(thrown), thrown);
  }
}
