// An HTTP/2 server whose requests are offered first as bare streams: Node's compatibility layer
// makes a request and a response object for every stream in its own 'stream' listener, and a
// call that is served straight from its stream (rpc-handler's serveStream) needs neither.
import type { Http2SecureServer, Http2Server, IncomingHttpHeaders, ServerHttp2Stream } from "node:http2";

/** Takes an HTTP/2 request as its bare stream, before Node makes its request and response objects; false to leave it to them. */
export type StreamTaker = (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, rawHeaders: string[]) => boolean;

/** Offers each of `server`'s streams to `take` before its request listener sees it. */
export function streamsFirst(server: Http2Server | Http2SecureServer, take: StreamTaker | undefined): void {
  if (!take) return;
  const compat = server.listeners("stream") as ((...args: unknown[]) => void)[];
  server.removeAllListeners("stream");
  server.on("stream", (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, flags: number, rawHeaders: string[]) => {
    if (take(stream, headers, rawHeaders)) return;
    for (const listener of compat) listener.call(server, stream, headers, flags, rawHeaders);
  });
}
