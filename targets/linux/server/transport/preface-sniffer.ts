// Tells an HTTP/2 cleartext connection from an HTTP/1.1 one by its first bytes, so one port serves
// gRPC (h2c) and gRPC-web: an HTTP/2 client opens with the fixed connection preface, and no
// HTTP/1 request line starts the same way. A TLS client opens with a handshake record (its first
// byte 22), which no cleartext request starts with either. The bytes read are put back before the
// connection is handed on, so the chosen server reads the stream from its start.
import type { Socket } from "node:net";

const preface = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");

export type WireProtocol = "h2" | "http/1.1" | "tls";

/** A TLS record of content type handshake: what every TLS connection opens with. */
const TLS_HANDSHAKE = 0x16;

/** The protocol the bytes seen so far announce, or undefined while they could still be either. */
export function classifyPreface(seen: Uint8Array): WireProtocol | undefined {
  if (seen.length > 0 && seen[0] === TLS_HANDSHAKE) return "tls";
  const n = Math.min(seen.length, preface.length);
  for (let i = 0; i < n; i++) if (seen[i] !== preface[i]) return "http/1.1";
  return seen.length >= preface.length ? "h2" : undefined;
}

/**
 * Waits for enough bytes to decide, puts them back and calls `handOver` with the socket paused.
 * A connection that has not decided within `timeoutMs` is closed (however it drips its bytes).
 */
export function sniffPreface(socket: Socket, timeoutMs: number, handOver: (protocol: WireProtocol) => void): void {
  let seen: Buffer | undefined;
  const timer = setTimeout(() => socket.destroy(), timeoutMs);
  const onData = (chunk: Buffer) => {
    seen = seen === undefined ? chunk : Buffer.concat([seen, chunk]);
    const protocol = classifyPreface(seen);
    if (protocol === undefined) return;
    socket.off("data", onData);
    clearTimeout(timer);
    socket.pause();
    socket.unshift(seen);
    handOver(protocol);
  };
  socket.once("close", () => clearTimeout(timer));
  socket.on("data", onData);
}
