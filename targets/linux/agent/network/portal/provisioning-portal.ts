// The captive portal as the provisioning controller sees it: one HTTP server on the hotspot
// address serving the page and the provisioning API, and the DNS responder that sends every
// lookup there. Phones probe a well-known URL when they join a network; answering it with the
// page (instead of the expected 204 or "Success") is what makes them show the sign-in sheet.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "../../../../../core/index.js";
import type { AccessPoint } from "../network-backend.js";
import { createDnsResponder, ipv4Bytes } from "./dns-responder.js";
import { renderPortalPage, type CredentialsPrompt, type PortalPageInput } from "./portal-page.js";
import { PORTAL_SCRIPT } from "./portal-script.js";
import { createProvisioningActions, type SubmitResult } from "./provisioning-actions.js";
import { API_BODY_LIMIT, API_PREFIX, createProvisioningApi, sendJson } from "./provisioning-api.js";
import type { MachineCredentials, NetworkChoice } from "./provisioning-input.js";
import { RequestBodyError, parseFormBody, readBody, requireMediaType } from "./request-body.js";

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

const PAGE_PATHS = new Set(["/", "/index.html"]);

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
  const scriptHash = createHash("sha256").update(PORTAL_SCRIPT).digest("base64");
  const pageHeaders = {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "content-security-policy": `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${scriptHash}'; connect-src 'self'; form-action 'self'; img-src data:; base-uri 'none'; frame-ancestors 'none'`,
  };

  function credentialsPrompt(): CredentialsPrompt {
    if (!actions.status().needsCredentials) return "none";
    return options.fragmentId ? "optional" : "required";
  }

  async function sendPage(req: IncomingMessage, res: ServerResponse, status: number, extra: Partial<PortalPageInput>): Promise<void> {
    const html = renderPortalPage({
      manufacturer: options.manufacturer,
      model: options.model,
      fragmentId: options.fragmentId,
      credentials: credentialsPrompt(),
      networks: (await actions.networks()).filter((ap) => ap.ssid !== ""),
      ...extra,
    });
    res.writeHead(status, { ...pageHeaders, "content-length": String(Buffer.byteLength(html)) });
    res.end(req.method === "HEAD" ? undefined : html);
  }

  /** The form posted without JavaScript (as a form posts: urlencoded): same checks and outcome, answered with the page. */
  async function postForm(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let form: Record<string, string>;
    try {
      requireMediaType(req, "application/x-www-form-urlencoded");
      form = parseFormBody(await readBody(req, API_BODY_LIMIT));
    } catch (err) {
      if (!(err instanceof RequestBodyError)) throw err;
      await sendPage(req, res, err.status, { outcome: { kind: "error", error: err.message } });
      return;
    }
    const ssid = form["ssid"] ?? "";
    const values = { ssid, part_id: (form["part_id"] ?? "").trim(), api_key_id: (form["api_key_id"] ?? "").trim() };
    const apiKey = (form["api_key"] ?? "").trim();
    const prompt = credentialsPrompt();
    const anyCredential = values.part_id !== "" || values.api_key_id !== "" || apiKey !== "";
    const credentials =
      prompt === "required" || (prompt === "optional" && anyCredential)
        ? { partId: values.part_id, apiKeyId: values.api_key_id, apiKey }
        : undefined;
    const outcome = await actions.provision({ ssid, psk: form["psk"] ?? "" }, credentials, prompt === "required");
    if (outcome.ok) await sendPage(req, res, 200, { outcome: { kind: "success", ssid } });
    else if (outcome.status === 400 && outcome.field) {
      await sendPage(req, res, 400, { values, problem: { field: outcome.field, error: outcome.error } });
    } else await sendPage(req, res, outcome.status, { values, outcome: { kind: "error", error: outcome.error } });
  }

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
    const path = url.pathname;
    if (path.startsWith(API_PREFIX)) return api(req, res, path);
    const known = PAGE_PATHS.has(path);
    if (!known && !options.redirectAll) {
      req.resume();
      const text = `Not found. The setup page is at http://${host}/\n`;
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8", "content-length": String(Buffer.byteLength(text)) });
      res.end(text);
      return;
    }
    if (req.method === "GET" || req.method === "HEAD") {
      const lastError = actions.status().lastError;
      return sendPage(req, res, 200, {
        values: { ssid: url.searchParams.get("ssid") ?? "" },
        ...(lastError ? { outcome: { kind: "error", error: `The last attempt did not connect: ${lastError}` } } : {}),
      });
    }
    if (req.method === "POST" && known) return postForm(req, res);
    req.resume();
    res.writeHead(405, { allow: known ? "GET, HEAD, POST" : "GET, HEAD", "content-type": "text/plain; charset=utf-8" });
    res.end(`${req.method} is not allowed here\n`);
  }

  const server = createServer({ requestTimeout: 15_000, headersTimeout: 10_000 }, (req, res) => {
    try {
      options.onUserActivity();
    } catch (err) {
      logger.warn("user activity callback failed", { error: String(err) });
    }
    route(req, res).catch((err: unknown) => {
      logger.error("portal request failed", { path: req.url, error: err instanceof Error ? err.message : String(err) });
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
