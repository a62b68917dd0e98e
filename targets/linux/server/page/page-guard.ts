// Who may use the control page's endpoints. With API keys, a request needs a valid token (the
// bearer the page got from Authenticate with a key), whatever its origin. A change (a config
// write) must besides come from the page itself: JSON, not a form a foreign page could post
// without asking (a "simple" request the browser sends without a preflight), and, when the
// browser says where it comes from, from the very origin the request is addressed to. Without
// keys the port's own screen has already turned away other sites' pages and foreign Host names.
import type { HttpRequest } from "../transport/index.js";
import { PageRefusal } from "./page-http.js";

export interface PageGuardOptions {
  /** True while API keys are configured. */
  tokensRequired: () => boolean;
  /** True for a request with a valid token. */
  isAuthenticated: (req: HttpRequest) => boolean | Promise<boolean>;
}

export interface PageGuard {
  /** Throws a PageRefusal (401) for a request that needs a token and has none that is valid. */
  read(req: HttpRequest): Promise<void>;
  /** As `read`, and throws (403, 415) for a change that is not the page's own JSON request. */
  change(req: HttpRequest): Promise<void>;
}

export function createPageGuard(options: PageGuardOptions): PageGuard {
  const read = async (req: HttpRequest) => {
    if (!options.tokensRequired()) return;
    if (await options.isAuthenticated(req)) return;
    const why = req.headers.authorization ? "the token is not valid (expired, or its key was removed)" : "no token was sent";
    throw new PageRefusal(401, `this machine has API keys: log in with a key first (${why})`);
  };
  return {
    read,
    async change(req) {
      sameOriginOnly(req);
      const type = String(req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
      if (type !== "application/json") {
        throw new PageRefusal(415, `send the configuration as application/json (found ${JSON.stringify(type.slice(0, 100) || "no content type")}); forms are refused`);
      }
      await read(req);
    },
  };
}

function sameOriginOnly(req: HttpRequest): void {
  const origin = req.headers.origin;
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") {
    throw new PageRefusal(403, `changes are taken only from this machine's own page (the browser says this request is ${JSON.stringify(String(site).slice(0, 40))})`);
  }
  if (origin === undefined) return;
  const host = req.headers.host ?? req.headers[":authority"];
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    originHost = "";
  }
  if (originHost === "" || originHost.toLowerCase() !== String(host ?? "").toLowerCase()) {
    throw new PageRefusal(403, `changes are taken only from this machine's own page, not from ${JSON.stringify(origin.slice(0, 200))}`);
  }
}
