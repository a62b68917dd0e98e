// The provisioning API, for a mobile app: JSON over HTTP under /api/v1, beside the portal page
// and doing the same things. Every answer is JSON; every mistake comes back as
// `{ "ok": false, "error": ..., "field"?: ... }` with a 4xx status, never as a dropped connection.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ActionOutcome, ProvisioningActions } from "./provisioning-actions.js";
import { RequestBodyError, parseJsonObject, readBody, requireMediaType, stringField } from "./request-body.js";

export const API_PREFIX = "/api/v1/";
/** Larger than any honest request (an SSID, a password and three credentials). */
export const API_BODY_LIMIT = 16 * 1024;

export interface ProvisioningApiOptions {
  manufacturer: string;
  model: string;
  fragmentId: string;
  actions: ProvisioningActions;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(text)),
    "cache-control": "no-store",
    ...headers,
  });
  res.end(text);
}

function sendOutcome(res: ServerResponse, outcome: ActionOutcome): void {
  if (outcome.ok) sendJson(res, 200, { ok: true });
  else sendJson(res, outcome.status, { ok: false, error: outcome.error, ...(outcome.field ? { field: outcome.field } : {}) });
}

/** The JSON object a request carries; only `application/json` is read (see request-body.ts). */
async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  requireMediaType(req, "application/json");
  return parseJsonObject(await readBody(req, API_BODY_LIMIT));
}

/** Returns the handler for /api/v1/... requests. */
export function createProvisioningApi(options: ProvisioningApiOptions): (req: IncomingMessage, res: ServerResponse, path: string) => Promise<void> {
  const { actions } = options;
  const routes: Record<string, { method: "GET" | "POST"; handle: Handler }> = {
    status: {
      method: "GET",
      async handle(_req, res) {
        const status = actions.status();
        sendJson(res, 200, {
          manufacturer: options.manufacturer,
          model: options.model,
          fragment_id: options.fragmentId,
          needs_credentials: status.needsCredentials,
          state: status.state,
          last_error: status.lastError ?? null,
        });
      },
    },
    networks: {
      method: "GET",
      async handle(_req, res) {
        const networks = await actions.networks();
        sendJson(res, 200, {
          networks: networks.map((ap) => ({
            ssid: ap.ssid,
            strength: ap.strength,
            security: ap.security,
            secured: ap.security !== "open",
            frequency_mhz: ap.frequencyMhz,
          })),
        });
      },
    },
    network: {
      method: "POST",
      async handle(req, res) {
        const body = await jsonBody(req);
        const choice = { ssid: stringField(body, "ssid"), psk: stringField(body, "psk") };
        sendOutcome(res, await actions.provision(choice, undefined, false));
      },
    },
    credentials: {
      method: "POST",
      async handle(req, res) {
        const body = await jsonBody(req);
        const appAddress = stringField(body, "app_address");
        const credentials = {
          partId: stringField(body, "part_id"),
          apiKeyId: stringField(body, "api_key_id"),
          apiKey: stringField(body, "api_key"),
          ...(appAddress === "" ? {} : { appAddress }),
        };
        sendOutcome(res, await actions.saveCredentials(credentials));
      },
    },
  };

  return async (req, res, path) => {
    const route = Object.prototype.hasOwnProperty.call(routes, path.slice(API_PREFIX.length))
      ? routes[path.slice(API_PREFIX.length)]
      : undefined;
    if (!route) {
      sendJson(res, 404, { ok: false, error: `no such endpoint: ${path}` });
      return;
    }
    const method = req.method === "HEAD" && route.method === "GET" ? "GET" : req.method;
    if (method !== route.method) {
      req.resume();
      sendJson(res, 405, { ok: false, error: `${req.method} is not allowed on ${path}; use ${route.method}` }, { allow: route.method === "GET" ? "GET, HEAD" : "POST" });
      return;
    }
    try {
      await route.handle(req, res);
    } catch (err) {
      if (!(err instanceof RequestBodyError)) throw err;
      if (err.status === 413) res.setHeader("connection", "close");
      sendJson(res, err.status, { ok: false, error: err.message, ...(err.field ? { field: err.field } : {}) });
    }
  };
}
