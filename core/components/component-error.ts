// The error a component raises for a request it cannot carry out. The code is a gRPC status
// name, so the RPC layer maps it without guessing; hardware faults arrive as the HAL's IOError.

export type ComponentErrorCode = "invalid_argument" | "not_found" | "unimplemented" | "unavailable";

export class ComponentError extends Error {
  override name = "ComponentError";
  constructor(readonly code: ComponentErrorCode, message: string) {
    super(message);
  }
}

/** Rejects a number that is not finite, naming the argument. */
export function requireFinite(value: number, what: string): number {
  if (typeof value !== "number" || !isFinite(value)) {
    throw new ComponentError("invalid_argument", `${what} must be a finite number, got ${String(value)}`);
  }
  return value;
}
