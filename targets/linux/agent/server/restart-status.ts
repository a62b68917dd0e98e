// Asking svc-server how it is: `GET /restart_status` answers once the server serves (that is
// readiness), and says whether a restart is allowed now (maintenance window, reconfiguration).
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";

export interface ServerRestartStatus {
  restartAllowed: boolean;
  reconfiguring: boolean;
  /** null when no maintenance window is configured. */
  maintenanceAllowed: boolean | null;
  reason: string;
}

/** The status, or undefined when the server does not answer (not serving yet, or gone). */
export function fetchRestartStatus(url: string, timeoutMs = 2_000): Promise<ServerRestartStatus | undefined> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const request = target.protocol === "https:" ? httpsRequest : httpRequest;
    // The server's own certificate may be self-signed; the agent talks to it on the same device.
    const req = request(target, { method: "GET", timeout: timeoutMs, rejectUnauthorized: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve(res.statusCode === 200 ? parseStatus(body) : undefined));
      res.on("error", () => resolve(undefined));
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(undefined));
    req.end();
  });
}

function parseStatus(body: string): ServerRestartStatus | undefined {
  try {
    const data = JSON.parse(body) as Record<string, unknown>;
    if (typeof data.restart_allowed !== "boolean") return undefined;
    return {
      restartAllowed: data.restart_allowed,
      reconfiguring: data.reconfiguring === true,
      maintenanceAllowed: typeof data.maintenance_allowed === "boolean" ? data.maintenance_allowed : null,
      reason: typeof data.reason === "string" ? data.reason : "",
    };
  } catch {
    return undefined;
  }
}
