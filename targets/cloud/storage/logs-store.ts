// Machines' log entries in the store: appended in batches, read one part at a time newest first
// (a page at a time, a page token naming where the last page ended), and deleted only by age.
// Nothing here deletes one part's or one entry's logs: no API may.
import { CompiledQuery, sql, type Kysely } from "kysely";
import type { LogsTable, Tables } from "./tables.js";

export type NewLogRow = Omit<LogsTable, "id">;

export interface StoredLog extends NewLogRow {
  id: number;
}

/** Where a page ended: the last entry's time and id (entries are ordered by both, newest first). */
export interface LogCursor {
  time: number;
  id: number;
}

export interface LogQuery {
  partId: string;
  /** Lower case; every level when empty. */
  levels: readonly string[];
  /** Entries whose message contains this, in any case. */
  filter?: string;
  /** Inclusive bounds, ms. */
  startMs?: number;
  endMs?: number;
  /** Entries strictly older than this one (the previous page's last). */
  before?: LogCursor;
  limit: number;
}

/** The columns of a new entry, in the order the insert statement binds them. */
const COLUMNS = ["part_id", "time", "level", "host", "logger", "message", "caller", "stack", "fields"] as const satisfies readonly (keyof NewLogRow)[];

/**
 * The insert statement for `count` entries, built by kysely once per count and kept: building a
 * thousand-row insert each call was a fifth of ingest. Only the statement's text is kept; each
 * call binds its own values.
 */
const insertTexts = new WeakMap<Kysely<Tables>, Map<number, string>>();

function insertText(db: Kysely<Tables>, count: number): string {
  let byCount = insertTexts.get(db);
  if (byCount === undefined) insertTexts.set(db, (byCount = new Map()));
  let text = byCount.get(count);
  if (text === undefined) {
    const placeholder = Object.fromEntries(COLUMNS.map((c) => [c, ""])) as unknown as NewLogRow;
    text = db.insertInto("logs").values(Array.from({ length: count }, () => placeholder)).compile().sql;
    byCount.set(count, text);
  }
  return text;
}

export async function insertLogs(db: Kysely<Tables>, rows: readonly NewLogRow[]): Promise<void> {
  if (rows.length === 0) return;
  const parameters: unknown[] = [];
  for (const row of rows) for (const column of COLUMNS) parameters.push(row[column]);
  await db.executeQuery(CompiledQuery.raw(insertText(db, rows.length), parameters));
}

/** One page of a part's entries, newest first. */
export async function queryLogs(db: Kysely<Tables>, query: LogQuery): Promise<StoredLog[]> {
  let select = db.selectFrom("logs").selectAll().where("part_id", "=", query.partId);
  if (query.levels.length > 0) select = select.where("level", "in", [...query.levels]);
  if (query.startMs !== undefined) select = select.where("time", ">=", query.startMs);
  if (query.endMs !== undefined) select = select.where("time", "<=", query.endMs);
  if (query.filter !== undefined && query.filter !== "") {
    const pattern = `%${query.filter.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    select = select.where(sql<boolean>`lower(message) like ${pattern} escape '\\'`);
  }
  const before = query.before;
  if (before !== undefined) {
    select = select.where((eb) => eb.or([eb("time", "<", before.time), eb.and([eb("time", "=", before.time), eb("id", "<", before.id)])]));
  }
  const rows = await select.orderBy("time", "desc").orderBy("id", "desc").limit(query.limit).execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), time: Number(r.time) }));
}

/**
 * Deletes at most `batch` of the oldest entries made before `cutoffMs`; answers how many went.
 * Small batches keep each statement short, so ingest waits at most one batch for the store.
 */
export async function deleteLogsBefore(db: Kysely<Tables>, cutoffMs: number, batch: number): Promise<number> {
  const oldest = db.selectFrom("logs").select("id").where("time", "<", cutoffMs).orderBy("time").limit(batch);
  const result = await db.deleteFrom("logs").where("id", "in", oldest).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How many entries a part has (for diagnostics and tests). */
export async function countLogs(db: Kysely<Tables>, partId?: string): Promise<number> {
  let select = db.selectFrom("logs").select((eb) => eb.fn.countAll<number>().as("n"));
  if (partId !== undefined) select = select.where("part_id", "=", partId);
  return Number((await select.executeTakeFirstOrThrow()).n);
}
