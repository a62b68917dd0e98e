// The plain HTTP routes svc-cloud serves beside its RPCs (the installer's credentials file, the CA
// certificate, later the web app), matched by method and exact path. Anything else is a 404 with a
// JSON body saying so.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import type { CloudContext } from "./cloud-context.js";

export type HttpRequest = IncomingMessage | Http2ServerRequest;
/** A response as connect's fallback hands it over (its `write` typed loosely). */
export type HttpResponse = (Omit<ServerResponse, "write"> | Omit<Http2ServerResponse, "write">) & { write(chunk: string | Uint8Array): boolean };

export interface HttpRoute {
  method: "GET" | "POST" | "DELETE";
  /** The exact path; one ending in "/" (other than "/" itself) takes every path under it. */
  path: string;
  handle(req: HttpRequest, res: HttpResponse, url: URL, context: CloudContext): Promise<void>;
}

/** A request header as one string; "" when absent or repeated. */
export function requestHeader(req: HttpRequest, name: string): string {
  const value = req.headers[name];
  return typeof value === "string" ? value : "";
}

/** The host a request was sent to (HTTP/2's :authority, HTTP/1.1's Host). */
export function hostOf(req: HttpRequest): string {
  return requestHeader(req, ":authority") || requestHeader(req, "host");
}

/** Whether the request came over TLS. */
export function isEncrypted(req: HttpRequest): boolean {
  return (req.socket as { encrypted?: boolean } | null)?.encrypted === true;
}

/** The address the request came from; "" when not known. */
export function peerOf(req: HttpRequest): string {
  return req.socket?.remoteAddress ?? "";
}

/** A whole answer: its status, type, any other headers, and its body with its length. */
export function sendBody(res: HttpResponse, status: number, type: string, body: string | Uint8Array, headers: Record<string, string> = {}): void {
  (res as ServerResponse).writeHead(status, { ...headers, "content-type": type, "content-length": Buffer.byteLength(body) });
  res.end(body);
}

export function sendJson(res: HttpResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendBody(res, status, "application/json", JSON.stringify(body), { "cache-control": "no-store", ...headers });
}

export function createHttpFallback(routes: readonly HttpRoute[], context: CloudContext, log: (line: string) => void) {
  return (req: HttpRequest, res: HttpResponse): void => {
    const url = new URL(req.url ?? "/", "http://svc-cloud");
    const route = routes.find((r) => (r.path.length > 1 && r.path.endsWith("/") ? url.pathname.startsWith(r.path) : r.path === url.pathname) && r.method === req.method);
    if (route === undefined) {
      sendJson(res, 404, { error: `no route for ${req.method} ${url.pathname}` });
      return;
    }
    route.handle(req, res, url, context).catch((thrown: unknown) => {
      log(`svc-cloud: ${req.method} ${url.pathname} failed: ${(thrown as Error)?.stack ?? String(thrown)}`);
      if (!res.headersSent) sendJson(res, 500, { error: "internal error" });
      else res.end();
    });
  };
}
