// PostgreSQL's refusals in svc's error model, mapped where the driver meets the store (its SQLSTATE
// names the kind): a duplicate of a unique value is AlreadyExists, a row naming one that is not
// there FailedPrecondition, a lost race PostgreSQL detected (serialisation, deadlock) Aborted, so
// the caller tries again, text PostgreSQL cannot hold (a NUL character) InvalidArgument, and a
// server shutting down, restarting or out of reach (or no connection to it free in time)
// Unavailable. Anything else is passed on as it came, to be answered as an internal error.
import { Code, SvcError } from "../../../core/index.js";

const BY_STATE: Record<string, Code> = {
  "23505": Code.AlreadyExists,
  "23503": Code.FailedPrecondition,
  "40001": Code.Aborted,
  "40P01": Code.Aborted,
  "22021": Code.InvalidArgument,
  "22P05": Code.InvalidArgument,
  "57P01": Code.Unavailable,
  "57P02": Code.Unavailable,
  "57P03": Code.Unavailable,
};

/** Node's errors for a server that cannot be reached or went away. */
const UNREACHABLE = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

/** `thrown` as a SvcError when it is one of PostgreSQL's refusals svc has a code for; otherwise as it is. */
export function fromPostgresError(thrown: unknown): unknown {
  if (thrown instanceof SvcError || typeof thrown !== "object" || thrown === null) return thrown;
  const { code, message } = thrown as { code?: unknown; message?: unknown };
  if (typeof code !== "string") {
    if (/Connection terminated|not queryable|timeout exceeded when trying to connect/i.test(String(message))) return new SvcError(Code.Unavailable, `the database: ${String(message)}`, thrown);
    return thrown;
  }
  const mapped = BY_STATE[code] ?? (code.startsWith("08") || UNREACHABLE.has(code) ? Code.Unavailable : undefined);
  return mapped === undefined ? thrown : new SvcError(mapped, `the database: ${String(message)}`, thrown);
}
