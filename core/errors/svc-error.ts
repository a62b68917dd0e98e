// The one error class of svc: what a resource, the graph or an API handler raises when it cannot
// do what was asked. It carries a status code (code.ts), a message for people and the cause.
// Anything else thrown is folded in by `SvcError.from`, so the transports (connect on Linux, the
// XS dispatcher on the MCU) translate one type only.
//
// The HAL's IOError keeps the string codes of ECMA-419 (drivers and Moddable's own classes branch
// on them); `from` is the one place they become status codes. Platform errors (errno, HTTP/2
// resets) never reach the core as such: the Linux adapters map them at the edge.
import { IOError, type IOErrorCode } from "../../hal/io.js";
import { Code } from "./code.js";

const ioCodes: Record<IOErrorCode, Code> = {
  busy: Code.FailedPrecondition,
  unsupported: Code.Unimplemented,
  io: Code.Unavailable,
  closed: Code.Unavailable,
  invalid: Code.InvalidArgument,
};

export class SvcError extends Error {
  readonly code: Code;

  constructor(code: Code, message: string, cause?: unknown) {
    super(message);
    // Defined, not assigned: where Error.prototype is frozen (a preloaded XS firmware), assigning
    // `name` throws as it would on any read-only inherited property.
    Object.defineProperty(this, "name", { value: "SvcError", configurable: true, enumerable: true, writable: true });
    this.code = code;
    // `cause` as ES2022 defines it; set by hand because the core compiles against ES2020.
    if (cause !== undefined) Object.defineProperty(this, "cause", { value: cause, configurable: true, writable: true });
  }

  /** Whatever was thrown, as a SvcError with the code it deserves (Unknown when none fits). */
  static from(thrown: unknown): SvcError {
    if (thrown instanceof SvcError) return thrown;
    if (thrown instanceof IOError) return new SvcError(ioCodes[thrown.code], thrown.message, thrown);
    if (thrown instanceof Error) return new SvcError(Code.Unknown, thrown.message || thrown.name, thrown);
    return new SvcError(Code.Unknown, String(thrown), thrown);
  }
}
