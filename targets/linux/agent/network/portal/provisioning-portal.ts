// The captive portal as the provisioning controller sees it: one HTTP server on the hotspot
// address serving the page and the provisioning API, and the DNS responder that sends every
// lookup there. Phones probe a well-known URL when they join a network; answering it with the
// page (instead of the expected 204 or "Success") is what makes them show the sign-in sheet.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { errorMessage, type Logger } from "../../../../../core/index.js";
import type { AccessPoint } from "../network-backend.js";
import { createDnsResponder, ipv4Bytes } from "./dns-responder.js";
import { createPortalPages } from "./portal-pages.js";
import { createProvisioningActions, type SubmitResult } from "./provisioning-actions.js";
import { API_PREFIX, createProvisioningApi, sendJson } from "./provisioning-api.js";
import type { MachineCredentials, NetworkChoice } from "./provisioning-input.js";

/** The URLs phones and computers fetch to detect a captive portal; all answered with the page. */
export const CAPTIVE_PROBE_PATHS = [
  "/generate_204",
  "/gen_204",
  "/hotspot-detect.html",
  "/library/test/success.html",
  "/connecttest.txt",
  "/ncsi.txt",
  "/redirect",
  "/canonical.html",
  "/success.txt",
] as const;

export interface ProvisioningPortalOptions {
  /** The device's IPv4 address on the hotspot: where both servers listen, and every DNS answer. */
  host: string;
  /** Default 80; 0 picks a free port. */
  httpPort?: number;
  /** Default 53; 0 picks a free port. */
  dnsPort?: number;
  manufacturer: string;
  model: string;
  /** "" when no fragment is configured. */
  fragmentId: string;
  /** `!disable_captive_portal_redirect`: every name and path leads to the portal, not only `*.setup` and `/`. */
  redirectAll: boolean;
  /** The device has no machine credentials yet. */
  needsCredentials: boolean;
  /** Why the last submitted network did not connect, shown on the page until the next attempt. */
  lastError?: string;
  scan(): Promise<AccessPoint[]>;
  submit(request: NetworkChoice): Promise<SubmitResult>;
  saveCredentials?(credentials: MachineCredentials): Promise<void>;
  /** Called on every HTTP request: a person is using the portal. */
  onUserActivity(): void;
  logger: Logger;
}

export interface ProvisioningPortal {
  start(): Promise<{ httpPort: number; dnsPort: number }>;
  stop(): Promise<void>;
  /** Shows a connection failure found after a submit returned (e.g. once the hotspot is back). */
  reportError(message: string | undefined): void;
}

export function createProvisioningPortal(options: ProvisioningPortalOptions): ProvisioningPortal {
  const { logger, host } = options;
  if (!ipv4Bytes(host)) throw new TypeError(`provisioning portal: host must be an IPv4 address, got ${JSON.stringify(host)}`);
  const actions = createProvisioningActions(options);
  const api = createProvisioningApi({ ...options, actions });
  const dns = createDnsResponder({
    host,
    port: options.dnsPort ?? 53,
    address: host,
    redirectAll: options.redirectAll,
    logger: logger.child("dns"),
  });
  const pages = createPortalPages(options, actions);

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://portal.invalid");
    } catch {
      req.resume();
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8" });
      res.end("Bad request target\n");
      return;
    }
    if (url.pathname.startsWith(API_PREFIX)) return api(req, res, url.pathname);
    return pages(req, res, url);
  }

  const server = createServer({ requestTimeout: 15_000, headersTimeout: 10_000 }, (req, res) => {
    try {
      options.onUserActivity();
    } catch (err) {
      logger.warn("user activity callback failed", { error: String(err) });
    }
    route(req, res).catch((err: unknown) => {
      logger.error("portal request failed", { path: req.url, error: errorMessage(err) });
      if (res.headersSent) res.destroy();
      else sendJson(res, 500, { ok: false, error: "internal error" });
    });
  });
  server.on("clientError", (_err, socket) => socket.destroy());
  let started = false;

  async function listenHttp(): Promise<number> {
    const port = options.httpPort ?? 80;
    await new Promise<void>((resolve, reject) => {
      const failed = (err: Error) => reject(new Error(`provisioning portal: cannot listen on ${host}:${port}/tcp: ${err.message}`));
      server.once("error", failed);
      server.listen(port, host, () => {
        server.off("error", failed);
        resolve();
      });
    });
    return (server.address() as AddressInfo).port;
  }

  async function closeHttp(): Promise<void> {
    if (!server.listening) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }

  return {
    async start() {
      if (started) throw new Error("provisioning portal: already started");
      started = true;
      try {
        const httpPort = await listenHttp();
        const dnsPort = await dns.start();
        logger.info("provisioning portal started", { host, http_port: httpPort, dns_port: dnsPort, redirect_all: options.redirectAll });
        return { httpPort, dnsPort };
      } catch (err) {
        started = false;
        await closeHttp();
        throw err;
      }
    },
    async stop() {
      if (!started) return;
      started = false;
      await Promise.all([closeHttp(), dns.stop()]);
      logger.info("provisioning portal stopped");
    },
    reportError: actions.reportError,
  };
}
