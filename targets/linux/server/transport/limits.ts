// Every bound the API port keeps, in one place: how large a request may be, how long a client may
// take to say what it wants, how many connections one address and everyone together may hold,
// how many calls one HTTP/2 connection may run at once. Each transport reads them from here, so a
// gRPC call over HTTP/2, gRPC-web and Connect over HTTP/1.1 meet the same rules. The message
// size is a setting (`network.max_message_bytes`); the rest are fixed, chosen so that no client
// that means to talk ever meets them.
import { readFileSync } from "node:fs";

/** Viam's limit for one message, in either direction. */
export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
/** The setting a caller is told to change when a message is too large. */
export const MESSAGE_SIZE_SETTING = "network.max_message_bytes";

export interface TransportLimits {
  /** Largest request or response message; a unary request's whole body is held to it. */
  readonly maxMessageBytes: number;
  /** Largest body of a call that needs no credentials (Authenticate), which anyone may send. */
  readonly openMethodMaxBytes: number;
  /** HTTP/1.1: the request line and headers must have arrived within this. */
  readonly headersTimeoutMs: number;
  /** HTTP/1.1: the whole request, body included, must have arrived within this. */
  readonly requestTimeoutMs: number;
  /** HTTP/1.1: a kept-alive connection with no request is closed after this. */
  readonly keepAliveTimeoutMs: number;
  /** Cleartext: a connection must show which protocol it speaks within this. */
  readonly firstBytesTimeoutMs: number;
  /** HTTP/2: the client's SETTINGS must arrive within this of the connection's start. */
  readonly settingsTimeoutMs: number;
  /** HTTP/2: a connection with no call running is closed (GOAWAY) after this. */
  readonly sessionIdleTimeoutMs: number;
  /** Connections held at once, from everyone (bounded below the process's open-file limit). */
  readonly maxConnections: number;
  /** Connections held at once from one remote address. */
  readonly maxConnectionsPerAddress: number;
  /** HTTP/2: calls one connection may run at once. */
  readonly maxConcurrentStreams: number;
  /** Largest request line and headers (HTTP/1.1), or header list (HTTP/2). */
  readonly maxHeaderBytes: number;
}

export const DEFAULT_TRANSPORT_LIMITS: TransportLimits = Object.freeze({
  maxMessageBytes: DEFAULT_MAX_MESSAGE_BYTES,
  openMethodMaxBytes: 64 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 300_000,
  keepAliveTimeoutMs: 5_000,
  firstBytesTimeoutMs: 10_000,
  settingsTimeoutMs: 10_000,
  sessionIdleTimeoutMs: 300_000,
  maxConnections: 1024,
  maxConnectionsPerAddress: 64,
  maxConcurrentStreams: 128,
  maxHeaderBytes: 16 * 1024,
});

/**
 * The limits in force: the defaults, what the caller overrides, and the connection cap kept
 * below the open-file limit (three quarters of it: the rest is for files, modules and sockets).
 */
export function resolveLimits(overrides: Partial<TransportLimits> = {}, openFileLimit = readOpenFileLimit()): TransportLimits {
  const limits = { ...DEFAULT_TRANSPORT_LIMITS, ...overrides };
  if (openFileLimit !== undefined) {
    limits.maxConnections = Math.max(1, Math.min(limits.maxConnections, Math.floor((openFileLimit * 3) / 4)));
  }
  return Object.freeze(limits);
}

// The soft limit on open files, from /proc (Node has no getrlimit); undefined when unreadable.
function readOpenFileLimit(): number | undefined {
  try {
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync("/proc/self/limits", "utf8"));
    return match && match[1] !== "unlimited" ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}
