// `GET /restart_status`: whether the machine may be restarted now (the agent asks before an
// update). No while a reconfiguration is being applied or while the maintenance window says no;
// the other fields say why.
import type { HttpRoute } from "../transport/index.js";

export interface RestartStatus {
  restartAllowed: boolean;
  /** True while a configuration is being applied. */
  reconfiguring: boolean;
  /** What the maintenance window says now; true when none is configured (nothing holds maintenance back). */
  maintenanceAllowed: boolean;
  /** Why a restart is not allowed now; "" when it is. */
  reason: string;
  /** svc-cloud asked for a restart, which waits until one is allowed. */
  restartRequested: boolean;
}

export function restartStatusRoute(status: () => RestartStatus | Promise<RestartStatus>): HttpRoute {
  return {
    method: "GET",
    path: "/restart_status",
    async handler(req, res) {
      const now = await status();
      const body = JSON.stringify({
        restart_allowed: now.restartAllowed,
        reconfiguring: now.reconfiguring,
        maintenance_allowed: now.maintenanceAllowed,
        reason: now.reason,
        restart_requested: now.restartRequested,
      });
      res.writeHead(200, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        "cache-control": "no-store",
      });
      if (req.method === "HEAD") res.end();
      else res.end(body);
    },
  };
}
