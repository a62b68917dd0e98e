// `GET /page/api/diagnostics?metric=NAME&metric=...`: the last hour of the server's diagnostics
// (FTDC) readings for the control page's charts: every metric name recorded, and the times and
// values of the metrics asked for (all of them when none is named), at most 600 points each
// (see diagnostics-series.ts). With recording off (-ftdc=false) it answers `recording: false`.
import type { HttpRequest, HttpRoute } from "../transport/index.js";
import { diagnosticsSeries, type DiagnosticsReading } from "./diagnostics-series.js";
import type { PageGuard } from "./page-guard.js";
import { answerRefusal, PageRefusal, sendJson } from "./page-http.js";

/** The readings of the last hour, oldest first; undefined when recording is off. */
export type DiagnosticsReadings = () => readonly DiagnosticsReading[] | undefined;

const COLUMNS = 300;
const MAX_METRICS_ASKED = 40;
const MAX_NAME_CHARS = 300;

export function diagnosticsRoute(readings: DiagnosticsReadings | undefined, guard: PageGuard): HttpRoute {
  return {
    method: "GET",
    path: "/page/api/diagnostics",
    handler: async (req, res) => {
      try {
        await guard.read(req);
        const wanted = metricsAsked(req);
        const recorded = readings?.();
        if (!recorded) return sendJson(res, 200, { recording: false, names: [], series: [] });
        const { names, series } = diagnosticsSeries(recorded, wanted, COLUMNS);
        sendJson(res, 200, { recording: true, names, series });
      } catch (thrown) {
        answerRefusal(res, thrown);
      }
    },
  };
}

/** The metrics named in the query, or undefined for all of them. */
function metricsAsked(req: HttpRequest): string[] | undefined {
  const asked = new URL(req.url ?? "/", "http://page.invalid").searchParams.getAll("metric");
  if (asked.length === 0) return undefined;
  if (asked.length > MAX_METRICS_ASKED) throw new PageRefusal(400, `metric: at most ${MAX_METRICS_ASKED} at a time (found ${asked.length})`);
  const long = asked.find((name) => name.length > MAX_NAME_CHARS || name === "");
  if (long !== undefined) throw new PageRefusal(400, `metric: a name is 1 to ${MAX_NAME_CHARS} characters (found ${long.length === 0 ? "an empty one" : `one of ${long.length}`})`);
  return asked;
}
