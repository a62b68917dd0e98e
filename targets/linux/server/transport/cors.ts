// CORS for the API port, so a web page served from elsewhere (a browser app, the local UI) can
// call the machine with gRPC-web or Connect. The header lists are joined once, here; a request
// without an Origin header (every non-browser client) costs one header lookup.
import { cors as connectCors } from "@connectrpc/connect";
import type { HttpRequest, HttpResponse } from "./http-types.js";

export interface CorsOptions {
  /** Origins allowed to call, exactly as browsers send them ("https://app.example.com"). Default: any. */
  readonly allowedOrigins?: readonly string[];
  /** Request headers allowed beyond those of gRPC-web, Connect and the Viam SDKs. */
  readonly extraAllowedHeaders?: readonly string[];
  /** Response headers exposed beyond the gRPC status ones. */
  readonly extraExposedHeaders?: readonly string[];
}

export interface CorsPolicy {
  /** Adds CORS headers to `res`; true when the request was a preflight and has been answered. */
  apply(req: HttpRequest, res: HttpResponse): boolean;
}

// What the Viam SDKs send besides the protocol headers: bearer tokens, the session id, the host
// a signaling call is for, and the key headers of older clients.
const viamHeaders = ["authorization", "viam-sid", "rpc-host", "key_id", "key", "viam_client"];

export const corsAllowedHeaders: readonly string[] = [
  ...new Set([...connectCors.allowedHeaders, "grpc-timeout", ...viamHeaders].map((h) => h.toLowerCase())),
];
export const corsExposedHeaders: readonly string[] = [...connectCors.exposedHeaders];

export function createCorsPolicy(options: CorsOptions = {}): CorsPolicy {
  const origins = options.allowedOrigins ? new Set(options.allowedOrigins) : undefined;
  const allowHeaders = [...corsAllowedHeaders, ...(options.extraAllowedHeaders ?? [])].join(", ");
  const exposeHeaders = [...corsExposedHeaders, ...(options.extraExposedHeaders ?? [])].join(", ");
  const allowMethods = [...connectCors.allowedMethods, "OPTIONS"].join(", ");

  return {
    apply(req, res) {
      const origin = req.headers.origin;
      if (origin === undefined && req.method !== "OPTIONS") return false;
      const preflight = req.method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined;
      if (origin !== undefined && (origins === undefined || origins.has(origin))) {
        res.setHeader("access-control-allow-origin", origin);
        res.setHeader("access-control-allow-credentials", "true");
        res.setHeader("vary", "Origin");
        if (preflight) {
          res.setHeader("access-control-allow-methods", allowMethods);
          res.setHeader("access-control-allow-headers", allowHeaders);
          res.setHeader("access-control-max-age", "7200");
          // A public page calling a machine on the local network asks for this first.
          if (req.headers["access-control-request-private-network"] === "true") {
            res.setHeader("access-control-allow-private-network", "true");
          }
        } else {
          res.setHeader("access-control-expose-headers", exposeHeaders);
        }
      }
      if (!preflight) return false;
      res.writeHead(204);
      res.end();
      return true;
    },
  };
}
