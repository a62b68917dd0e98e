// TLS beside cleartext on one port: the secure server a cleartext listener hands a connection
// that opens with a TLS handshake to (listeners.ts), while the port offers TLS at all.
import type { Http2SecureServer } from "node:http2";
import type { Server } from "node:net";
import { ListenError } from "../../system/index.js";
import { createSecureServer, type ListenerParts, type TlsCredentials } from "./listeners.js";

export interface TlsAlongside {
  /** The secure server, once a certificate was offered. */
  server(): Server | undefined;
  /** Offers TLS with `credentials` to new connections; a ListenError, changing nothing, when they are not usable. */
  offer(credentials: TlsCredentials): void;
  close(): void;
}

/**
 * The secure server a cleartext port hands TLS connections to: made with the first certificate
 * offered, given each later one for new connections. It never listens itself, so it is told it
 * does (its HTTP/1.1 timeout checks start on that) and closed with the port.
 */
export function createTlsAlongside(parts: ListenerParts): TlsAlongside {
  let secure: Http2SecureServer | undefined;
  return {
    server: () => secure,
    offer(credentials) {
      try {
        if (secure) secure.setSecureContext(credentials);
        else {
          secure = createSecureServer(parts, credentials);
          secure.emit("listening");
        }
      } catch (cause) {
        throw new ListenError(`tls: the certificate or key is not usable: ${(cause as Error).message}`, { cause });
      }
    },
    close: () => void secure?.close(),
  };
}
