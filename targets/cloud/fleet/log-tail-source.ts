// A part's log entries as they are stored, for whoever tails that part (api/logs-app.ts). On
// SQLite one process stores every entry, and its log bus (log-bus.ts) hands each call's entries
// on as they are stored. On PostgreSQL a machine may send its entries to any replica, so a tail
// reads the part's new chunks from the store every TAIL_POLL_MS instead, whichever replica stored
// them, and hands on each chunk's entries in the order the chunks were stored.
//
// Chunk ids come from a sequence, and a call that took its id first may commit last, so "ids
// above the last one seen" could skip a chunk. Each look instead reads the ids of the part's
// chunks received since `from`, RECEIVED_SLACK_MS before the newest chunk the store held at an
// earlier look, and hands on those not handed on yet. That holds as long as a chunk is stored
// within that slack of its `received` and the replicas' clocks agree within it: a chunk the store
// did not hold yet when a newest was read is received no earlier than the slack before it, so
// every later `from` is at or below its `received` and the first look after it is stored reads it.
// The ids remembered are only those a look could read again (received at or after `from`), so
// none is handed on twice and the set stays as small as the slack's worth of the part's calls.
//
// The newest does not depend on the part, so the tails of one source share it (newest-received.ts):
// one read per TAIL_POLL_MS however many tails look, a look taking the value another's read found
// up to a period before. The argument above needs of a newest only that it was read before the
// look reads its part's chunks (a look waits for it first), not that it is recent: a stale newest
// is a lower one, which only makes `from` lower, so the next look reads more, never less, and the
// ids it reads again are still remembered. A tail's opening reads the newest afresh, for what the
// store holds then is what the tail leaves out; when it holds no chunk, all that comes is new, and
// the tail reads its part from the start until a newest is known.
import type { Kysely } from "kysely";
import { Code, errorMessage, SvcError, type Clock } from "../../../core/index.js";
import { eachChunkEntry, type ChunkEntry } from "../storage/log-chunk.js";
import { preparedQuery, type Value } from "../storage/prepared-query.js";
import type { Store } from "../storage/store.js";
import type { Tables } from "../storage/tables.js";
import type { LogBus } from "./log-bus.js";
import { newestReceived, type NewestReceived } from "./newest-received.js";

/** How often a tail on PostgreSQL looks for new chunks of its part. */
export const TAIL_POLL_MS = 500;
/** How far before the newest chunk seen each look starts reading (see above). */
export const RECEIVED_SLACK_MS = 10_000;
/** Chunks whose bodies one read brings in: a chunk may be a few MiB. */
const BODIES_READ = 8;

export interface TailListener {
  /** One stored call's entries (or part of them), in the order they were stored. */
  entries(batch: readonly ChunkEntry[]): void;
  /** The part can no longer be followed (the store failed); nothing comes after. */
  failed(error: SvcError): void;
}

export interface LogTailSource {
  /** Hands `partId`'s entries stored from now on to `listener`; resolves once following, to what stops it. */
  follow(partId: string, listener: TailListener): Promise<() => void>;
}

/** The source for `store`: its bus on SQLite, the store itself on PostgreSQL. */
export function logTailSource(options: { store: Store; bus: LogBus; clock: Clock }): LogTailSource {
  if (options.store.kind === "sqlite") {
    const { bus } = options;
    return { follow: async (partId, listener) => bus.subscribe(partId, (batch) => listener.entries(batch)) };
  }
  const { db } = options.store;
  const newest = newestReceived(db, options.clock, TAIL_POLL_MS);
  return { follow: (partId, listener) => followStored(db, newest, options.clock, partId, listener) };
}

/** A stand-in for a number (stand-ins are typed as text). */
const as = <T>(value: Value) => value as unknown as T;

const partChunksSince = preparedQuery((db, partId, since) =>
  db.selectFrom("log_chunks").select(["id", "received"]).where("part_id", "=", partId).where("received", ">=", as<number>(since)),
);

interface Following {
  readonly partId: string;
  /** Where the next look starts reading (a `received`, ms): the store's start until a newest is known. */
  from: number;
  /** The ids handed on (or there when the tail opened) that a look may read again, with their `received`. */
  readonly seen: Map<number, number>;
  stopped: boolean;
  timer: unknown;
}

interface ChunkRef {
  id: number;
  received: number;
}

async function followStored(db: Kysely<Tables>, newest: NewestReceived, clock: Clock, partId: string, listener: TailListener): Promise<() => void> {
  // What the store holds already is no part of the tail.
  const opening = await newest.read(true);
  const from = opening === undefined ? -Number.MAX_SAFE_INTEGER : opening - RECEIVED_SLACK_MS;
  const following: Following = { partId, from, seen: new Map(), stopped: false, timer: undefined };
  await freshChunks(db, following, opening);
  const poll = async () => {
    try {
      const known = await newest.read();
      if (!following.stopped) await handOn(db, following, await freshChunks(db, following, known), listener);
    } catch (thrown) {
      if (following.stopped) return;
      following.stopped = true;
      listener.failed(new SvcError(Code.Unavailable, `following the part's logs in the store failed (${errorMessage(thrown)}); open the tail again (GetRobotPartLogs reads what was missed)`, thrown));
      return;
    }
    if (!following.stopped) following.timer = clock.setTimeout(() => void poll(), TAIL_POLL_MS);
  };
  following.timer = clock.setTimeout(() => void poll(), TAIL_POLL_MS);
  return () => {
    following.stopped = true;
    clock.clearTimeout(following.timer);
  };
}

/**
 * One look, given the newest `received` read before it: the part's chunks stored since the last
 * look and not handed on yet, oldest id first; `from` then moves up to the slack before `newest`.
 */
async function freshChunks(db: Kysely<Tables>, following: Following, newest: number | undefined): Promise<ChunkRef[]> {
  const { from } = following;
  const fresh: ChunkRef[] = [];
  for (const row of await partChunksSince.all(db, following.partId, from)) {
    const chunk = { id: Number(row.id), received: Number(row.received) };
    if (following.seen.has(chunk.id)) continue;
    following.seen.set(chunk.id, chunk.received);
    fresh.push(chunk);
  }
  if (newest !== undefined) {
    const next = Math.max(from, newest - RECEIVED_SLACK_MS);
    for (const [id, received] of following.seen) if (received < next) following.seen.delete(id);
    following.from = next;
  }
  return fresh.sort((a, b) => a.id - b.id);
}

/** Reads the chunks' bodies a few at a time and hands each one's entries on, until the tail stops. */
async function handOn(db: Kysely<Tables>, following: Following, chunks: readonly ChunkRef[], listener: TailListener): Promise<void> {
  for (let at = 0; at < chunks.length && !following.stopped; at += BODIES_READ) {
    const group = chunks.slice(at, at + BODIES_READ);
    const rows = await db
      .selectFrom("log_chunks")
      .select(["id", "body"])
      .where("part_id", "=", following.partId)
      .where("received", ">=", Math.min(...group.map((chunk) => chunk.received)))
      .where("id", "in", group.map((chunk) => chunk.id))
      .orderBy("id")
      .execute();
    for (const row of rows) if (!following.stopped) listener.entries(entriesOf(row.body));
  }
}

/** A chunk's entries, each a view of the body (the tail's backlog keeps its own copy). */
function entriesOf(body: Uint8Array): ChunkEntry[] {
  const entries: ChunkEntry[] = [];
  eachChunkEntry(body, (time, level, _index, start, end) => entries.push({ time, level, bytes: body.subarray(start, end) }));
  return entries;
}
