// What every request on the API port passes before it reaches a method or a route: without API
// keys, the Host must name this machine and a page may call only from the machine's own origins
// or the configured ones; with keys, any origin may call (the token decides). CORS headers and
// preflights are answered here too.
import type { IncomingHttpHeaders } from "node:http2";
import { createCorsPolicy, type AccessRules, type CorsOptions } from "./cors.js";
import { hostRefusal, refuseHost } from "./host-check.js";
import type { HttpRequest, HttpResponse } from "../../../../node/rpc/http-types.js";
import { createMachineNames, type MachineNames } from "./machine-names.js";

export interface RequestScreen {
  /** Answers a request that goes no further (a foreign Host or origin, a preflight); true when it did. */
  screen(req: HttpRequest, res: HttpResponse): boolean;
  /** True for a request (by its headers) that screen() would let through untouched: no page's origin, a Host it admits. */
  passes(headers: IncomingHttpHeaders): boolean;
  /** True for an entity naming this machine: one of its names, alone or with the port it listens on. */
  namesMachine(entity: string): boolean;
}

export interface RequestScreenOptions {
  /** The host the server listens on; undefined for every interface. */
  readonly bindHost: string | undefined;
  /** The port listened on (known once listening). */
  readonly port: () => number;
  readonly secure: boolean;
  /** Read on every request; return the same object while nothing changes. */
  readonly access: () => AccessRules;
  readonly cors?: CorsOptions;
  /** Injected in tests; the system's by default. */
  readonly names?: MachineNames;
}

/** No keys and nothing added: only the machine's own names and origins. */
export const ownNamesOnly: AccessRules = Object.freeze({ tokensRequired: false, hostNames: [], corsOrigins: [] });

export function createRequestScreen(options: RequestScreenOptions): RequestScreen {
  const names = options.names ?? createMachineNames({ bindHost: options.bindHost, extra: () => options.access().hostNames });
  const cors = createCorsPolicy(options.cors);
  const scheme = options.secure ? "https:" : "http:";
  const defaultPort = options.secure ? 443 : 80;

  // A page served by the machine itself: its scheme, one of its names, and the port it listens on.
  const ownOrigin = (origin: string) => {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    const port = url.port === "" ? defaultPort : Number(url.port);
    return url.protocol === scheme && port === options.port() && names.has(url.hostname);
  };

  return {
    screen(req, res) {
      const rules = options.access();
      if (!rules.tokensRequired) {
        const wrongHost = hostRefusal(req.headers, names);
        if (wrongHost !== undefined) {
          refuseHost(res, wrongHost);
          return true;
        }
      }
      return cors.apply(req, res, rules, ownOrigin);
    },
    passes(headers) {
      if (headers.origin !== undefined || headers[":method"] === "OPTIONS") return false;
      return options.access().tokensRequired || hostRefusal(headers, names) === undefined;
    },
    namesMachine: (entity) => names.namesMachine(entity, options.port()),
  };
}
