// The portal's pages, apart from the API: the setup page (also the answer to the captive-portal
// probes when every path leads to the portal), and the form it posts without JavaScript, answered
// with the page again. Any other path is a 404 naming the page; any other method a 405.
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { renderPortalPage, type CredentialsPrompt, type PortalPageInput } from "./portal-page.js";
import { PORTAL_SCRIPT } from "./portal-script.js";
import type { ProvisioningActions } from "./provisioning-actions.js";
import { API_BODY_LIMIT } from "./provisioning-api.js";
import { RequestBodyError, parseFormBody, readBody, requireMediaType } from "./request-body.js";

const PAGE_PATHS = new Set(["/", "/index.html"]);

export type PortalPages = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;

export interface PortalPagesOptions {
  /** The portal's address, named in the 404 page. */
  host: string;
  manufacturer: string;
  model: string;
  fragmentId: string;
  /** Every path leads to the page, not only `/`. */
  redirectAll: boolean;
}

export function createPortalPages(options: PortalPagesOptions, actions: ProvisioningActions): PortalPages {
  const { host } = options;
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

  return async (req, res, url) => {
    const path = url.pathname;
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
  };
}
