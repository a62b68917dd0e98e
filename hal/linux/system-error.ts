// Platform errors (errno codes from Node and the native addons) mapped to the contract's IOError
// at the edge, each message naming the device it was about.
import { IOError } from "../io.js";

/** The errno name of a Node or addon error (`ENOENT`), when it has one. */
export function errnoOf(thrown: unknown): string | undefined {
  const e = thrown as { code?: unknown; errno?: unknown; message?: unknown };
  if (typeof e?.code === "string" && e.code.startsWith("E")) return e.code;
  const match = typeof e?.message === "string" ? /\b(E[A-Z]{2,})\b/.exec(e.message) : null;
  return match ? match[1] : undefined;
}

/**
 * An IOError for a failure on `device` (a path, or "0x40 on /dev/i2c-1"), with `hint` added to
 * what a person can fix (a missing device, a permission).
 */
export function ioErrorFrom(thrown: unknown, device: string, hint = ""): IOError {
  if (thrown instanceof IOError) return thrown;
  const errno = errnoOf(thrown);
  const extra = hint ? `: ${hint}` : "";
  switch (errno) {
    case "ENOENT":
      return new IOError("io", `${device} not found${extra}`);
    case "EACCES":
    case "EPERM":
      return new IOError("io", `permission denied on ${device}${extra}`);
    case "EBUSY":
      return new IOError("busy", `${device} is busy (in use by another driver or process)`);
    case "ENXIO":
    case "EREMOTEIO":
    case "ENODEV":
      return new IOError("io", `no device answers at ${device}`);
    case "EOPNOTSUPP":
    case "ENOTSUP":
      return new IOError("unsupported", `${device} does not support this transfer`);
    case "EINVAL":
      return new IOError("invalid", `${device} refused the request: ${(thrown as Error).message}`);
    default:
      return new IOError("io", `${device}: ${(thrown as Error)?.message ?? String(thrown)}`);
  }
}
