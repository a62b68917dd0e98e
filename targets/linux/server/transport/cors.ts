// CORS for the API port: which web pages may call the machine from a browser. With API keys every
// call needs a token the page must hold, so any origin may call. Without keys the machine obeys
// whoever reaches it, so only its own origins and those configured may call, and a page from
// anywhere else is refused before anything runs (CORS alone would only hide the answer, after
// the motor had moved). Credentials are never allowed: tokens travel in the `authorization`
// header a page sets itself, so nothing ambient (cookies, HTTP auth, client certificates) is
// needed, and none can ever be borrowed by another site. A request without an Origin header
// (every non-browser client) costs one header lookup.
import { cors as connectCors } from "@connectrpc/connect";
import type { HttpRequest, HttpResponse } from "../../../../node/rpc/http-types.js";

export interface CorsOptions {
  /** Origins allowed beyond the machine's own and the access rules' ("https://app.example.com"). */
  readonly allowedOrigins?: readonly string[];
  /** Request headers allowed beyond those of gRPC-web, Connect and the Viam SDKs. */
  readonly extraAllowedHeaders?: readonly string[];
  /** Response headers exposed beyond the gRPC status ones. */
  readonly extraExposedHeaders?: readonly string[];
}

/** Who may call the API port from a browser; read on every request, so it may follow the configuration. */
export interface AccessRules {
  /** True while every call needs a token (API keys are configured): any origin may call, and Host is not checked. */
  readonly tokensRequired: boolean;
  /** Names the machine answers to beyond its own (fqdn, local_fqdn, allowed_hosts). */
  readonly hostNames: readonly string[];
  /** Origins whose pages may call when tokens are not required, beyond the machine's own. */
  readonly corsOrigins: readonly string[];
}

export interface CorsPolicy {
  /**
   * Adds CORS headers to `res` for an allowed origin; true when the request has been answered:
   * a preflight, or a page whose origin may not call this machine.
   */
  apply(req: HttpRequest, res: HttpResponse, rules: AccessRules, ownOrigin: (origin: string) => boolean): boolean;
}

// What the Viam SDKs send besides the protocol headers: bearer tokens, the session id, the host
// a signaling call is for, and the key headers of older clients.
const viamHeaders = ["authorization", "viam-sid", "rpc-host", "key_id", "key", "viam_client"];

export const corsAllowedHeaders: readonly string[] = [
  ...new Set([...connectCors.allowedHeaders, "grpc-timeout", ...viamHeaders].map((h) => h.toLowerCase())),
];
export const corsExposedHeaders: readonly string[] = [...connectCors.exposedHeaders];

export function createCorsPolicy(options: CorsOptions = {}): CorsPolicy {
  const fixed = new Set((options.allowedOrigins ?? []).map(normalizeOrigin));
  const allowHeaders = [...corsAllowedHeaders, ...(options.extraAllowedHeaders ?? [])].join(", ");
  const exposeHeaders = [...corsExposedHeaders, ...(options.extraExposedHeaders ?? [])].join(", ");
  const allowMethods = [...connectCors.allowedMethods, "OPTIONS"].join(", ");
  // The configured origins, normalised once per rules object.
  let rulesSeen: AccessRules | undefined;
  let configured = new Set<string>();

  const allowed = (origin: string, rules: AccessRules, ownOrigin: (origin: string) => boolean) => {
    if (rules.tokensRequired) return true;
    if (rules !== rulesSeen) {
      configured = new Set(rules.corsOrigins.map(normalizeOrigin));
      rulesSeen = rules;
    }
    const normal = normalizeOrigin(origin);
    return fixed.has(normal) || configured.has(normal) || ownOrigin(origin);
  };

  return {
    apply(req, res, rules, ownOrigin) {
      const origin = req.headers.origin;
      if (origin === undefined && req.method !== "OPTIONS") return false;
      const preflight = req.method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined;
      if (origin !== undefined) {
        if (!allowed(origin, rules, ownOrigin)) {
          refuseOrigin(res, origin);
          return true;
        }
        res.setHeader("access-control-allow-origin", origin);
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

function refuseOrigin(res: HttpResponse, origin: string): void {
  res.writeHead(403, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", vary: "Origin" });
  res.end(
    `pages from ${JSON.stringify(origin.slice(0, 255))} may not call this machine: it has no API keys, so only its own ` +
      `pages may. Add the origin to network.cors_origins, or configure an api-key handler under auth.handlers.\n`,
  );
}

/** "HTTPS://App.Example.com:443" -> "https://app.example.com"; anything unparseable stays as it is. */
function normalizeOrigin(origin: string): string {
  try {
    const url = new URL(origin);
    return url.origin === "null" ? origin : url.origin;
  } catch {
    return origin;
  }
}
