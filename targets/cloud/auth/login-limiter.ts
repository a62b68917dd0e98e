// Limits failed sign-ins: after `maxFailures` failures for one entity (a key id or an email), or
// ten times as many from one peer address (many machines may share an address behind NAT),
// within `windowMs`, further attempts are refused until the window has passed, whatever their
// credentials. A success does not clear a count, so guessing many entities from one address is
// limited too.
//
// The failures are kept in the store (a row per failure and per name it counts against), so every
// replica on one database counts the same ones: a sign-in refused through one is refused through
// all. Names are sha256 hashes: the table holds no email or address, and any entity fits its index.
// Each replica sweeps the table after every SWEEP_EVERY failures it records: what expired goes, and
// random entities from many addresses are kept from growing it without end (see `compact`).
import type { Kysely } from "kysely";
import { Code, SvcError, type Clock } from "../../../core/index.js";
import { preparedQuery, type Value } from "../storage/prepared-query.js";
import { hashKey } from "../storage/secrets.js";
import type { Tables } from "../storage/tables.js";

export interface LoginLimiter {
  /** Throws ResourceExhausted while `entity` or `peer` is locked out. */
  check(entity: string, peer: string): Promise<void>;
  /** Counts a failed attempt against `entity` and against `peer`. */
  failed(entity: string, peer: string): Promise<void>;
  /** How many entities and peers the store holds failures of, within the window. */
  tracked(): Promise<number>;
}

export interface LoginLimiterOptions {
  /** The store whose table holds the failures (every replica's the same database). */
  store: { readonly db: Kysely<Tables> };
  clock: Clock;
  /** Failures of one entity within the window that lock it out; a peer address, ten times as many. */
  maxFailures?: number;
  windowMs?: number;
}

/** The most entities and peers remembered at once (one replica recording; see SWEEP_EVERY). */
export const MAX_TRACKED = 10_000;
/**
 * Failures a replica records between its sweeps. Each adds two names at most, so a sweep compacts
 * from MAX_TRACKED less that headroom; failures other replicas record meanwhile may pass it by
 * their own headroom until one sweeps.
 */
export const SWEEP_EVERY = 100;
const COMPACT_ABOVE = MAX_TRACKED - 2 * SWEEP_EVERY;

const entityName = (entity: string) => `entity:${hashKey(entity)}`;
const peerName = (peer: string) => `peer:${hashKey(peer)}`;

/** A stand-in for a number (stand-ins are typed as text). */
const as = <T>(value: Value) => value as unknown as T;

const recentFailures = preparedQuery((db, entity, peer, cutoff) =>
  db
    .selectFrom("sign_in_failures")
    .select(["name", (eb) => eb.fn.countAll<number>().as("failures")])
    .where("name", "in", [entity, peer])
    .where("at", ">", as<number>(cutoff))
    .groupBy("name"),
);

const recordFailure = preparedQuery((db, entity, peer, at) =>
  db.insertInto("sign_in_failures").values([
    { name: entity, at: as<number>(at) },
    { name: peer, at: as<number>(at) },
  ]),
);

export function createLoginLimiter(options: LoginLimiterOptions): LoginLimiter {
  const { store: { db }, clock, maxFailures = 10, windowMs = 5 * 60_000 } = options;
  const limits = { entity: maxFailures, peer: maxFailures * 10 };
  const lockedOut = (name: string, failures: number) => failures >= (name.startsWith("peer:") ? limits.peer : limits.entity);
  // The first failure a process records sweeps, so what expired while it was down goes too.
  let sinceSweep = SWEEP_EVERY;
  let sweeping = false;

  return {
    async check(entity, peer) {
      const rows = await recentFailures.all(db, entityName(entity), peerName(peer), clock.now() - windowMs);
      if (rows.some((row) => lockedOut(row.name, Number(row.failures)))) {
        throw new SvcError(Code.ResourceExhausted, "too many failed sign-in attempts; try again later");
      }
    },
    async failed(entity, peer) {
      await recordFailure.all(db, entityName(entity), peerName(peer), clock.now());
      sinceSweep += 1;
      if (sinceSweep < SWEEP_EVERY || sweeping) return;
      sinceSweep = 0;
      sweeping = true;
      try {
        const cutoff = clock.now() - windowMs;
        await db.deleteFrom("sign_in_failures").where("at", "<=", cutoff).execute();
        await compact(db, cutoff, limits);
      } finally {
        sweeping = false;
      }
    },
    tracked: () => trackedNames(db, clock.now() - windowMs),
  };
}

async function trackedNames(db: Kysely<Tables>, cutoff: number): Promise<number> {
  const row = await db
    .selectFrom("sign_in_failures")
    .select((eb) => eb.fn.count<number>("name").distinct().as("names"))
    .where("at", ">", cutoff)
    .executeTakeFirstOrThrow();
  return Number(row.names);
}

/**
 * Past COMPACT_ABOVE names the table is brought down to half of MAX_TRACKED (so compacting is
 * rare): the oldest (by their newest failure) of those not locked out go first, and only then the
 * oldest locked out, so whoever is locked out stays locked out through a flood of random entities.
 * What expired is gone already.
 */
async function compact(db: Kysely<Tables>, cutoff: number, limits: { entity: number; peer: number }): Promise<void> {
  let tracked = await trackedNames(db, cutoff);
  if (tracked <= COMPACT_ABOVE) return;
  for (const lockedToo of [false, true]) {
    if (tracked <= MAX_TRACKED / 2) return;
    const oldest = db
      .selectFrom("sign_in_failures")
      .select("name")
      .groupBy("name")
      .$if(!lockedToo, (q) => q.having((eb) => eb(eb.fn.countAll(), "<", eb.case().when("name", "like", "peer:%").then(limits.peer).else(limits.entity).end())))
      .orderBy((eb) => eb.fn.max("at"))
      .limit(tracked - MAX_TRACKED / 2);
    await db.deleteFrom("sign_in_failures").where("name", "in", oldest).execute();
    tracked = await trackedNames(db, cutoff);
  }
}
