// Plain HTTP routes served on the API port next to the RPCs (`GET /restart_status`, static
// files). They are looked up only for paths that are not RPC methods, so RPC calls never pay for
// them. A path ending in "/" with `prefix` set matches everything under it; the longest wins.
import type { HttpHandler, HttpRequest, HttpResponse } from "../../../../node/rpc/http-types.js";

export interface HttpRoute {
  /** "GET", "POST", ...; a GET route also answers HEAD. */
  readonly method: string;
  /** "/restart_status", or with `prefix`, a folder such as "/static/". */
  readonly path: string;
  readonly prefix?: boolean;
  readonly handler: HttpHandler;
}

export interface HttpRouteTable {
  /** Serves the request when a route's path matches; false when none does. */
  serve(req: HttpRequest, res: HttpResponse, path: string): boolean;
}

export function createHttpRouteTable(
  routes: readonly HttpRoute[],
  onError: (error: unknown, req: HttpRequest) => void,
): HttpRouteTable {
  const exact = new Map<string, Map<string, HttpHandler>>();
  const prefixes: Array<{ path: string; byMethod: Map<string, HttpHandler> }> = [];
  for (const [i, route] of routes.entries()) {
    if (!route.path.startsWith("/")) throw new RangeError(`httpRoutes[${i}].path: must start with "/"`);
    if (route.prefix && !route.path.endsWith("/")) throw new RangeError(`httpRoutes[${i}].path: a prefix must end with "/"`);
    let byMethod = route.prefix ? prefixes.find((p) => p.path === route.path)?.byMethod : exact.get(route.path);
    if (!byMethod) {
      byMethod = new Map();
      if (route.prefix) prefixes.push({ path: route.path, byMethod });
      else exact.set(route.path, byMethod);
    }
    const method = route.method.toUpperCase();
    byMethod.set(method, route.handler);
    if (method === "GET" && !byMethod.has("HEAD")) byMethod.set("HEAD", route.handler);
  }
  prefixes.sort((a, b) => b.path.length - a.path.length);

  return {
    serve(req, res, path) {
      const byMethod = exact.get(path) ?? prefixes.find((p) => path.startsWith(p.path))?.byMethod;
      if (!byMethod) return false;
      const handler = byMethod.get(req.method ?? "");
      if (!handler) {
        res.writeHead(405, { allow: [...byMethod.keys()].join(", ") });
        res.end();
        return true;
      }
      runHandler(handler, req, res, onError);
      return true;
    },
  };
}

// A failing route answers 500 instead of taking the server down.
function runHandler(
  handler: HttpHandler,
  req: HttpRequest,
  res: HttpResponse,
  onError: (error: unknown, req: HttpRequest) => void,
): void {
  const failed = (error: unknown) => {
    onError(error, req);
    if (res.headersSent) {
      res.end();
      return;
    }
    res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
    res.end("internal error\n");
  };
  try {
    // A handler may return anything (an arrow returning `res.end()`); only a rejection counts.
    Promise.resolve(handler(req, res)).catch(failed);
  } catch (error) {
    failed(error);
  }
}
