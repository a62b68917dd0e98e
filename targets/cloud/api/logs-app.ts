// AppService's log calls: GetRobotPartLogs (a page of one part's entries, newest first, by level,
// text and time range, with Viam's page tokens; a page of large entries is cut to fit one answer)
// and TailRobotPartLogs (new entries as they are stored, until the client goes; an empty batch when
// nothing came for a while, which tells a dead connection and checks the caller again). Anyone who may
// read the part may read its logs; nothing deletes them but their age (see fleet/log-retention.ts).
import { timestampMs } from "@bufbuild/protobuf/wkt";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { Code, SvcError } from "../../../core/index.js";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { AppService, TailRobotPartLogsResponseSchema } from "../../../proto/gen/app/v1/app_pb.js";
import type { LogEntry } from "../../../proto/gen/common/v1/common_pb.js";
import { requirePartRole } from "../auth/access.js";
import { resolvePrincipal } from "../auth/resolve-principal.js";
import { logTailSource, type LogTailSource } from "../fleet/log-tail-source.js";
import { callerOf } from "../server/caller.js";
import { nextTurn } from "../server/next-turn.js";
import type { CloudContext } from "../server/cloud-context.js";
import type { ChunkEntry } from "../storage/log-chunk.js";
import { queryLogs, type LogCursor } from "../storage/logs-store.js";
import { entryValues } from "./checked-entries.js";
import { entryOf, ERROR_LEVEL_INDEXES, levelIndexes, textFilter } from "./logs-entries.js";
import { createTailBacklog } from "./tail-backlog.js";

/** A page's size when the request names none, and the most it may name. */
export const DEFAULT_LOG_PAGE = 100;
export const MAX_LOG_PAGE = 1000;
/** Entries a tail may fall behind by before it is ended (the client reopens it). */
export const MAX_TAIL_BACKLOG = 10_000;
/** Bytes of entries a tail may fall behind by (one largest message's worth). */
export const MAX_TAIL_BACKLOG_BYTES = 4 * 1024 * 1024;
const MAX_FILTER = 1024;
/** How long a tail stays silent before it sends an empty batch (the watch's heartbeat, for logs). */
export const TAIL_HEARTBEAT_MS = 15_000;
/** Bytes of entries one page may hold: a page of the largest entries still fits one answer. */
export const MAX_PAGE_BYTES = 3 * 1024 * 1024;
/** Values (in entries' caller and fields) one page may hold; the rest follow by next_page_token. */
export const MAX_PAGE_VALUES = 16 * 1024;

function cursorText(cursor: LogCursor): string {
  return `${cursor.time}.${cursor.chunk}.${cursor.index}`;
}

function parseCursor(token: string): LogCursor {
  const match = /^(\d{1,16})\.(\d{1,16})\.(\d{1,7})$/.exec(token);
  if (match === null) throw new SvcError(Code.InvalidArgument, "page_token: not a token this service gave (use next_page_token of the previous page)");
  return { time: Number(match[1]), chunk: Number(match[2]), index: Number(match[3]) };
}

function filterText(filter: string | undefined): string | undefined {
  if (filter !== undefined && filter.length > MAX_FILTER) throw new SvcError(Code.InvalidArgument, `filter: at most ${MAX_FILTER} characters`);
  return filter;
}

export function logsAppPart(cloud: CloudContext): Partial<ServiceImpl<typeof AppService>> {
  const db = cloud.store.db;
  const source = logTailSource({ store: cloud.store, bus: cloud.logs, clock: cloud.clock });
  return {
    async getRobotPartLogs(request, context) {
      const part = await requirePartRole(db, callerOf(context), request.id, "viewer");
      const limit = request.limit === undefined || request.limit === 0n ? DEFAULT_LOG_PAGE : Number(request.limit);
      if (limit < 1 || limit > MAX_LOG_PAGE) throw new SvcError(Code.InvalidArgument, `limit: 1 to ${MAX_LOG_PAGE} (got ${request.limit})`);
      const levels = request.levels.length > 0 ? levelIndexes(request.levels, "levels") : request.errorsOnly ? ERROR_LEVEL_INDEXES : [];
      const rows = await queryLogs(db, {
        partId: part.id,
        levels,
        matches: textFilter(filterText(request.filter)),
        startMs: request.start === undefined ? undefined : timestampMs(request.start),
        endMs: request.end === undefined ? undefined : timestampMs(request.end),
        before: request.pageToken === undefined || request.pageToken === "" ? undefined : parseCursor(request.pageToken),
        limit,
        signal: context.signal,
        turn: nextTurn,
      });
      const page = withinAnswer(rows);
      const last = page.at(-1);
      const more = page.length < rows.length || rows.length === limit;
      return { logs: await decodedTakingTurns(page), nextPageToken: more && last !== undefined ? cursorText(last) : "" };
    },

    async *tailRobotPartLogs(request, context) {
      const part = await requirePartRole(db, callerOf(context), request.id, "viewer");
      const filter = filterText(request.filter);
      const matches = textFilter(filter);
      const wanted = (entry: ChunkEntry) => (!request.errorsOnly || ERROR_LEVEL_INDEXES.includes(entry.level)) && (matches === undefined || matches(entry.bytes));
      yield* tail(cloud, source, { partId: part.id, subject: callerOf(context).subject, wanted }, context);
    },
  };
}

/** Entries decoded between two turns of other calls: an entry may hold up to MAX_ENTRY_VALUES objects to make. */
const DECODED_BETWEEN_TURNS = 32;

/** The page's entries as the wire has them, other calls taking turns while a large page is decoded. */
async function decodedTakingTurns(rows: readonly ChunkEntry[]): Promise<LogEntry[]> {
  const decoded: LogEntry[] = [];
  for (const row of rows) {
    decoded.push(entryOf(row));
    if (decoded.length % DECODED_BETWEEN_TURNS === 0 && decoded.length < rows.length) await nextTurn();
  }
  return decoded;
}

/**
 * The first rows, at least one, that one answer holds: within MAX_PAGE_BYTES of encoded entries
 * (decoded and encoded again an entry is no larger, but for its time and level) and MAX_PAGE_VALUES
 * Values in their Structs (each an object or two to make, and to encode, on the one thread).
 */
function withinAnswer<T extends ChunkEntry>(rows: T[]): T[] {
  let bytes = 0;
  let values = 0;
  for (let i = 0; i < rows.length; i++) {
    bytes += rows[i]!.bytes.length;
    values += entryValues(rows[i]!.bytes);
    if ((bytes > MAX_PAGE_BYTES || values > MAX_PAGE_VALUES) && i > 0) return rows.slice(0, i);
  }
  return rows;
}

type TailMessage = MessageInitShape<typeof TailRobotPartLogsResponseSchema>;

interface Tailed {
  partId: string;
  /** Who is tailing, looked up again at each heartbeat: a revoked key's tail ends. */
  subject: string;
  wanted: (entry: ChunkEntry) => boolean;
}

/**
 * A part's new entries as they are stored, through whichever replica (fleet/log-tail-source.ts).
 * The stream opens with an empty batch (the client then knows it is listening) and ends when the
 * client goes; after TAIL_HEARTBEAT_MS without entries it sends another empty batch, so a
 * connection that died unseen fails its write and ends here, and the caller is checked again. A
 * client that falls MAX_TAIL_BACKLOG entries or MAX_TAIL_BACKLOG_BYTES behind is told so and ended
 * rather than kept in memory without bound, as is a tail whose source fails.
 */
async function* tail(cloud: CloudContext, source: LogTailSource, tailed: Tailed, context: HandlerContext): AsyncGenerator<TailMessage> {
  const { partId, wanted } = tailed;
  const backlog = createTailBacklog(MAX_TAIL_BACKLOG, MAX_TAIL_BACKLOG_BYTES);
  let ended: SvcError | undefined;
  let wake: (() => void) | undefined;
  const stop = await source.follow(partId, {
    entries: (rows) => {
      const kept = rows.filter(wanted);
      if (kept.length === 0) return;
      if (!backlog.offer(kept)) ended ??= new SvcError(Code.ResourceExhausted, `this tail fell more than ${MAX_TAIL_BACKLOG} entries or ${MAX_TAIL_BACKLOG_BYTES} bytes behind; open it again (GetRobotPartLogs reads what was missed)`);
      wake?.();
    },
    failed: (error) => {
      ended ??= error;
      wake?.();
    },
  });
  const onAbort = () => wake?.();
  context.signal.addEventListener("abort", onAbort);
  try {
    yield { logs: [] };
    while (!context.signal.aborted) {
      if (ended !== undefined) throw ended;
      const next = backlog.take();
      if (next === undefined) {
        const heard = await new Promise<boolean>((resolve) => {
          const timer = cloud.clock.setTimeout(() => resolve(false), TAIL_HEARTBEAT_MS);
          wake = () => {
            cloud.clock.clearTimeout(timer);
            resolve(true);
          };
        });
        wake = undefined;
        if (!heard && !context.signal.aborted) {
          await resolvePrincipal(cloud.store, tailed.subject);
          yield { logs: [] };
        }
        continue;
      }
      // A call's worth of entries may be more than one answer holds: sent as several.
      for (let rest = next; rest.length > 0; ) {
        const piece = withinAnswer(rest);
        rest = rest.slice(piece.length);
        yield { logs: await decodedTakingTurns(piece) };
      }
    }
  } finally {
    stop();
    context.signal.removeEventListener("abort", onAbort);
  }
}
