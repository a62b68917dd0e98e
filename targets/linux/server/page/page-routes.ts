// Every route of the machine's own control page on the API port: the page and its files, what the
// page asks before logging in (`GET /page/api/machine`: whether it must), and, behind a token when
// the machine has API keys, its configuration (read, and written when it is a local file), its
// resource graph, its newest logs and the last hour of its diagnostics readings. The status and the resources' controls go through the API
// itself, with the official SDK, as any client's would.
import type { Machine } from "../../../../core/index.js";
import type { RecentLogs } from "../../logging/index.js";
import type { HttpRequest, HttpRoute } from "../transport/index.js";
import { configRoutes, type PageConfigSource } from "./config-route.js";
import { diagnosticsRoute, type DiagnosticsReadings } from "./diagnostics-route.js";
import { graphRoute } from "./graph-route.js";
import { logsRoute } from "./logs-route.js";
import { createPageGuard } from "./page-guard.js";
import { sendJson } from "./page-http.js";
import { pageFileRoutes } from "./page-files.js";

export interface PageRoutesOptions {
  machine: Machine;
  source: PageConfigSource;
  /** True while API keys are configured. */
  tokensRequired: () => boolean;
  /** True for a request with a valid token. */
  isAuthenticated: (req: HttpRequest) => boolean | Promise<boolean>;
  /** The log entries the server keeps; without them the log view says there are none. */
  recentLogs?: RecentLogs;
  /** The diagnostics (FTDC) readings of the last hour, undefined while recording is off; without it the charts say recording is off. */
  diagnostics?: DiagnosticsReadings;
  /** False when -shareddir serves its folder at `/`: the page is then at `/page/` only. */
  atRoot: boolean;
  /** The machine answers WebRTC (its signaling on this port). */
  webrtc: boolean;
  /** Where the built page is; dist/server-page by default. */
  dir?: string;
}

export function pageRoutes(options: PageRoutesOptions): HttpRoute[] {
  const guard = createPageGuard(options);
  return [
    ...pageFileRoutes(options.atRoot, options.dir),
    {
      method: "GET",
      path: "/page/api/machine",
      handler: (_req, res) => sendJson(res, 200, { auth: options.tokensRequired(), webrtc: options.webrtc }),
    },
    ...configRoutes(options.machine, options.source, guard),
    graphRoute(options.machine, guard),
    logsRoute(options.recentLogs, guard),
    diagnosticsRoute(options.diagnostics, guard),
  ];
}
