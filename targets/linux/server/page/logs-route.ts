// `GET /page/api/logs?after=N&level=L`: the newest log entries the server keeps (after the one
// numbered N, at level L or above), for the control page's live log view, which asks again with
// the `next` it was given. Each entry's fields are cut to a bounded size: a log view is no way to
// move a large object off the machine.
import { parseLogLevel } from "../../../../core/index.js";
import type { RecentLogs } from "../../logging/index.js";
import type { HttpRoute } from "../transport/index.js";
import type { PageGuard } from "./page-guard.js";
import { answerRefusal, PageRefusal, queryParam, sendJson } from "./page-http.js";

const MAX_ENTRIES = 500;
const MAX_FIELDS_CHARS = 2000;

export function logsRoute(recent: RecentLogs | undefined, guard: PageGuard): HttpRoute {
  return {
    method: "GET",
    path: "/page/api/logs",
    handler: async (req, res) => {
      try {
        await guard.read(req);
        if (!recent) throw new PageRefusal(503, "this server keeps no logs for the page");
        const after = Number(queryParam(req, "after") ?? "0");
        if (!Number.isSafeInteger(after) || after < 0) throw new PageRefusal(400, "after: must be a whole number of 0 or more");
        const levelText = queryParam(req, "level") ?? "debug";
        const level = parseLogLevel(levelText);
        if (level === undefined) throw new PageRefusal(400, `level: must be one of debug, info, warn, error (found ${JSON.stringify(levelText.slice(0, 40))})`);
        const page = recent.since(after, level, MAX_ENTRIES);
        sendJson(res, 200, { next: page.next, missed: page.missed, entries: page.entries.map(shown) });
      } catch (thrown) {
        answerRefusal(res, thrown);
      }
    },
  };
}

function shown(entry: ReturnType<RecentLogs["since"]>["entries"][number]) {
  let fields = "";
  try {
    fields = Object.keys(entry.fields).length === 0 ? "" : JSON.stringify(entry.fields);
  } catch {
    fields = "(fields that cannot be shown)";
  }
  if (fields.length > MAX_FIELDS_CHARS) fields = `${fields.slice(0, MAX_FIELDS_CHARS)}…`;
  return { seq: entry.seq, time: entry.time, level: entry.level, logger: entry.logger, message: entry.message, fields };
}
