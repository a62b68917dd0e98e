// The replicas' channel on PostgreSQL: LISTEN/NOTIFY on one channel of the database. Every replica
// holds one connection of its own that listens; a message is sent with pg_notify through the
// store's pool, so it goes out when the statement commits and reaches every listening replica (the
// sender included) in commit order. Why PostgreSQL's and not a bus beside it: the replicas already
// share the database, a notice sent in the same database the edit was written to needs nothing
// more to run or to secure, and a machine's push then waits only for one round trip to it.
//
// A payload must be under 8000 bytes: a longer message goes as numbered pieces in one statement
// (so in one transaction, delivered together) and is put together on the listening side; a piece
// whose fellows never come is forgotten after PARTIAL_KEEP_MS. The listening connection is checked
// every PROBE_MS; when it is lost it is made again, after a wait that grows to RECONNECT_MAX_MS
// with jitter, and the listeners are told to resync: what was sent meanwhile is lost to this
// replica.
import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import pg from "pg";
import { every, type Clock } from "../../../core/index.js";
import { createChannelListeners, type ReplicaChannel } from "./replica-channel.js";
import type { Tables } from "../storage/tables.js";

/** The channel every replica listens on. */
export const CHANNEL = "svc_cloud";
/** The most bytes of a message's text in one notification (the rest of the 8000 is its header). */
export const PIECE_BYTES = 7800;
const PARTIAL_KEEP_MS = 30_000;
const PARTIALS_MAX = 1024;
const PROBE_MS = 15_000;
const RECONNECT_FIRST_MS = 500;
const RECONNECT_MAX_MS = 15_000;

export interface PostgresChannelOptions {
  url: string;
  db: Kysely<Tables>;
  clock: Clock;
  log: (line: string) => void;
  random?: () => number;
}

interface Partial {
  pieces: string[];
  left: number;
  since: number;
}

export async function openPostgresChannel(options: PostgresChannelOptions): Promise<ReplicaChannel> {
  const { clock, db, log } = options;
  // Without the store's plugins: a notice writes no table, and kysely's view of raw SQL would take
  // it for a write to every table, making every read kept between calls stale (table-versions.ts).
  const notifier = db.withoutPlugins();
  const random = options.random ?? Math.random;
  const listeners = createChannelListeners();
  const sender = randomUUID().slice(0, 8);
  let sent = 0;
  let client: pg.Client | undefined;
  let closed = false;
  let failures = 0;
  let reconnecting: unknown;
  // One send at a time: each commits before the next goes out, so this replica's messages reach
  // every replica in the order they were sent (two of the pool's connections could commit the
  // other way round: a machine's answer behind its own candidate).
  let sending: Promise<unknown> = Promise.resolve();

  const received = reassembling(clock, listeners.deliver);

  // One listening connection, from connecting to its loss.
  const connect = async () => {
    const next = new pg.Client({ connectionString: options.url, keepAlive: true });
    next.on("error", () => lost(next));
    next.on("end", () => lost(next));
    next.on("notification", (message) => {
      if (message.channel === CHANNEL && message.payload !== undefined) received(message.payload);
    });
    await next.connect();
    await next.query(`listen ${CHANNEL}`);
    if (closed) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
  };

  const lost = (which: pg.Client) => {
    if (client !== which) return;
    client = undefined;
    which.end().catch(() => undefined);
    if (!closed) log("svc-cloud: the connection listening for other replicas' notices was lost; making it again");
    reconnect();
  };

  const reconnect = () => {
    if (closed || reconnecting !== undefined) return;
    const ceiling = Math.min(RECONNECT_FIRST_MS * 2 ** failures, RECONNECT_MAX_MS);
    reconnecting = clock.setTimeout(() => {
      reconnecting = undefined;
      connect().then(
        () => {
          if (closed) return;
          failures = 0;
          log("svc-cloud: listening for other replicas' notices again");
          listeners.resync();
        },
        () => {
          failures++;
          reconnect();
        },
      );
    }, ceiling / 2 + (ceiling / 2) * random());
  };

  // A connection whose peer vanished without a word is found out by asking it something.
  const probe = () => {
    const current = client;
    current?.query("select 1").catch(() => lost(current));
  };

  await connect();
  const stopProbing = every(clock, PROBE_MS, probe);
  return {
    send(topic, body) {
      const id = `${sender}.${++sent}`;
      const pieces = splitBytes(body, PIECE_BYTES).map((text, seq, all) => `${id} ${seq} ${all.length} ${topic}\n${text}`);
      const notify = () => sql`select ${sql.join(pieces.map((piece) => sql`pg_notify(${CHANNEL}, ${piece})`))}`.execute(notifier);
      const done = sending.then(notify, notify);
      sending = done.catch(() => undefined);
      return done.then(() => undefined);
    },
    on: listeners.add,
    onResync: listeners.addResync,
    listening: () => client !== undefined,
    async close() {
      closed = true;
      stopProbing();
      if (reconnecting !== undefined) clock.clearTimeout(reconnecting);
      const last = client;
      client = undefined;
      await last?.end().catch(() => undefined);
    },
  };
}

/** Hands each whole message to `deliver`, putting pieces of a longer one together first. */
function reassembling(clock: Clock, deliver: (topic: string, body: string) => void): (payload: string) => void {
  const partials = new Map<string, Partial>();
  const received = (payload: string) => {
    const piece = parsePiece(payload);
    if (piece === undefined) return;
    if (piece.total === 1) return deliver(piece.topic, piece.text);
    forgetStale();
    const partial = partials.get(piece.id) ?? { pieces: new Array<string>(piece.total).fill(""), left: piece.total, since: clock.now() };
    if (!partials.has(piece.id)) {
      if (partials.size >= PARTIALS_MAX) return;
      partials.set(piece.id, partial);
    }
    if (partial.pieces[piece.seq] === "" && piece.seq < partial.pieces.length) {
      partial.pieces[piece.seq] = piece.text;
      partial.left--;
    }
    if (partial.left > 0) return;
    partials.delete(piece.id);
    deliver(piece.topic, partial.pieces.join(""));
  };

  const forgetStale = () => {
    const cutoff = clock.now() - PARTIAL_KEEP_MS;
    for (const [id, partial] of partials) if (partial.since < cutoff) partials.delete(id);
  };

  return received;
}

interface Piece {
  id: string;
  seq: number;
  total: number;
  topic: string;
  text: string;
}

/** A notification's header and text; undefined for anything that is not a piece of svc-cloud's. */
export function parsePiece(payload: string): Piece | undefined {
  const newline = payload.indexOf("\n");
  if (newline < 0) return undefined;
  const [id, seq, total, topic, ...rest] = payload.slice(0, newline).split(" ");
  const at = Number(seq);
  const of = Number(total);
  if (rest.length > 0 || id === undefined || topic === undefined || !Number.isInteger(at) || !Number.isInteger(of) || at < 0 || of < 1 || at >= of) return undefined;
  return { id, seq: at, total: of, topic, text: payload.slice(newline + 1) };
}

/** `text` in pieces of at most `max` UTF-8 bytes each, never splitting a character; one empty piece for "". */
export function splitBytes(text: string, max: number): string[] {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= max) return [text];
  const pieces: string[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = Math.min(start + max, bytes.length);
    // Back off continuation bytes (10xxxxxx) so the piece ends on a character's boundary.
    while (end < bytes.length && end > start && (bytes[end]! & 0xc0) === 0x80) end--;
    pieces.push(bytes.subarray(start, end).toString("utf8"));
    start = end;
  }
  return pieces;
}
