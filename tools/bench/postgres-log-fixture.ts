// Millions of log entries in a svc-cloud PostgreSQL store, written fast: the same fleet and entries
// as cloud-logs' SQLite fixture (ten parts, 100 entries a Log call, 3 % errors, 7 % warnings, 20 %
// debug, the rest info), stored as svc-cloud stores them (a chunk a call, log-chunk.ts), but each
// entry's bytes put together from pieces encoded once rather than by a general encoder, and the
// chunks written hundreds to a statement from a connection of the bench's own, the next statement
// made while the last one runs. Their arrivals (`received`) are spread over the last 29 days, so
// they fill 30 daily partitions (storage/log-partitions.ts, made first with svc-cloud's own
// function) and svc-cloud's retention, which deletes what arrived more than 30 days ago, keeps
// every one while the bench runs. The statistics are gathered at the end, as autovacuum would.
import { create, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import pg from "pg";
import { LogEntrySchema } from "../../proto/gen/common/v1/common_pb.js";
import { LOG_LEVELS } from "../../targets/cloud/api/logs-entries.js";
import { LOG_RETENTION_MS } from "../../targets/cloud/fleet/log-retention.js";
import { encodeChunk, summaryOf, type ChunkEntry } from "../../targets/cloud/storage/log-chunk.js";
import { dayStart, DAY_MS, makeLogPartitions } from "../../targets/cloud/storage/log-partitions.js";
import { openStore } from "../../targets/cloud/storage/open-store.js";
import { varintSize, writeDelimitedHead, writeVarint } from "../../targets/cloud/storage/wire-writer.js";
import { seedFleet, type SeededFleet } from "./fleet-seed.js";

const PARTS = 10;
const PER_CALL = 100;
/** Chunks written by one statement (seven parameters each, a few MB of bodies). */
const CHUNKS_PER_STATEMENT = 500;

export interface PostgresLogFixture {
  fleet: SeededFleet;
  entries: number;
  /** How many daily partitions hold them. */
  partitions: number;
}

/** The pieces every entry shares, encoded once: host and level (by level), logger and caller. */
function entryPieces() {
  const encode = (init: MessageInitShape<typeof LogEntrySchema>) => toBinary(LogEntrySchema, create(LogEntrySchema, init));
  return {
    head: LOG_LEVELS.map((level) => encode({ host: "bench", level })),
    logger: encode({ loggerName: "rdk.resource_manager" }),
    caller: encode({ caller: { File: "resource_manager.go", Line: 412, Defined: true } }),
  };
}

/** The fixture's `i`th entry's level: 3 % errors, 7 % warnings, 20 % debug, the rest info, spread evenly. */
function levelOf(i: number): number {
  const bucket = (i * 7919) % 100;
  return LOG_LEVELS.indexOf(bucket < 3 ? "error" : bucket < 10 ? "warn" : bucket < 30 ? "debug" : "info");
}

/** Room for one entry's bytes: the pieces, a time and a message of this fixture's (ASCII, under 64 bytes). */
const ENTRY_ROOM = 512;

/**
 * Writes a LogEntry's bytes in field order (host, level, time, logger_name, message, caller),
 * exactly what toBinary makes of the same entry, at `at` of `into`; answers where they end.
 * `message` is ASCII, a byte a character.
 */
function writeEntry(into: Buffer, at: number, pieces: ReturnType<typeof entryPieces>, level: number, time: number, message: string): number {
  const seconds = Math.floor(time / 1000);
  const nanos = (time - seconds * 1000) * 1_000_000;
  const timestamp = (seconds === 0 ? 0 : 1 + varintSize(seconds)) + (nanos === 0 ? 0 : 1 + varintSize(nanos));
  const head = pieces.head[level]!;
  into.set(head, at);
  at = writeDelimitedHead(into, at + head.length, 3, timestamp);
  if (seconds !== 0) {
    into[at++] = 0x08;
    at = writeVarint(into, at, seconds);
  }
  if (nanos !== 0) {
    into[at++] = 0x10;
    at = writeVarint(into, at, nanos);
  }
  into.set(pieces.logger, at);
  at = writeDelimitedHead(into, at + pieces.logger.length, 5, message.length);
  at += into.write(message, at, "latin1");
  into.set(pieces.caller, at);
  return at + pieces.caller.length;
}

/** One multi-row insert of log chunks and its parameters. */
function insertStatement(rows: unknown[][]): { text: string; values: unknown[] } {
  const tuples = rows.map((_, r) => `(${Array.from({ length: 7 }, (_, c) => `$${r * 7 + c + 1}`).join(", ")})`);
  return { text: `insert into log_chunks (part_id, received, first_time, last_time, levels, entries, body) values ${tuples.join(", ")}`, values: rows.flat() };
}

/** Writes `entries` log entries into the store at `database` (its fleet seeded through `dataDir`), their arrivals up to `now`. */
export async function buildPostgresLogFixture(dataDir: string, database: string, entries: number, now: number): Promise<PostgresLogFixture> {
  const fleet = await seedFleet(dataDir, PARTS, database);
  const span = LOG_RETENTION_MS - DAY_MS;
  const first = now - span;
  const partitions = (dayStart(now) - dayStart(first)) / DAY_MS + 1;
  const store = await openStore(dataDir, database);
  try {
    await makeLogPartitions(store.db, first, partitions - 1);
  } finally {
    await store.close();
  }
  const pieces = entryPieces();
  // The entries of the chunk being made; encodeChunk copies them into its body.
  const scratch = Buffer.allocUnsafe(PER_CALL * ENTRY_ROOM);
  const chunkAt = (from: number): unknown[] => {
    const made: ChunkEntry[] = [];
    let end = 0;
    for (let i = from; i < Math.min(entries, from + PER_CALL); i++) {
      const time = first + Math.floor((i * span) / entries);
      const level = levelOf(i);
      const start = end;
      end = writeEntry(scratch, start, pieces, level, time, `reading sensor-${i % 1000} took ${i % 97} ms`);
      made.push({ time, level, bytes: scratch.subarray(start, end) });
    }
    const s = summaryOf(made);
    const body = encodeChunk(made);
    return [fleet.parts[Math.floor(from / PER_CALL) % PARTS]!.partId, s.lastTime, s.firstTime, s.lastTime, s.levels, s.entries, Buffer.from(body.buffer, body.byteOffset, body.byteLength)];
  };
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    let writing: Promise<unknown> = Promise.resolve();
    for (let from = 0; from < entries; from += PER_CALL * CHUNKS_PER_STATEMENT) {
      const rows: unknown[][] = [];
      for (let at = from; at < Math.min(entries, from + PER_CALL * CHUNKS_PER_STATEMENT); at += PER_CALL) rows.push(chunkAt(at));
      await writing;
      const { text, values } = insertStatement(rows);
      writing = client.query(text, values);
    }
    await writing;
    await client.query("analyze log_chunks");
  } finally {
    await client.end();
  }
  return { fleet, entries, partitions };
}
