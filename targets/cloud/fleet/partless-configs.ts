// What a machine's Config costs, shared between parts. After a fragment is edited every part using
// it fetches its Config at once, and most of them hold the same own config (the fragment, perhaps a
// mod or two): each would parse, merge, convert and encode the same thing. Here the result of that
// work, the RobotConfig without `cloud` and `revision` and its encoding, is kept for each
// organisation and own config, with the revision of each fragment it merged. It is used again only
// while every one of those fragments is at that revision, checked against the store on use, so
// several svc-cloud processes on one store never serve a stale merge; while no fragment has changed
// at all since the last check (table-versions.ts), the check is not read again. The revisions
// checked at the same moment are read by one statement (storage/batched-reads.ts), and a part
// finding its merge stale while another is already merging the same config waits for that merge
// and checks it in turn, rather than doing the same work beside it. What went wrong is never kept:
// a failed merge is tried, and its error said, every time.
import type { Kysely } from "kysely";
import { toBinary } from "@bufbuild/protobuf";
import { RobotConfigSchema, type RobotConfig } from "../../../proto/gen/app/v1/robot_pb.js";
import { batchedReads } from "../storage/batched-reads.js";
import { preparedQuery } from "../storage/prepared-query.js";
import type { PartsTable, Tables } from "../storage/tables.js";
import type { TableVersions } from "../storage/table-versions.js";
import { effectiveConfigFrom } from "./effective-config.js";
import { toPartlessConfig } from "./robot-config.js";

export interface PartlessConfigs {
  /** The part's config as RobotConfig, without `cloud` and `revision`, and its encoding; never change what it answers. */
  of(store: { db: Kysely<Tables>; versions: TableVersions }, part: Pick<PartsTable, "id" | "organization_id" | "revision">, ownConfig: string, time: number): Promise<Partless>;
}

export interface Partless {
  readonly config: RobotConfig;
  readonly bytes: Uint8Array;
}

interface Kept extends Partless {
  /** Each fragment merged, by id, and its revision then. */
  readonly fragments: ReadonlyMap<string, number>;
  /** The characters of the own config and the merged one, what it holds on to. */
  readonly characters: number;
  /** The fragments table's stamp when the revisions were last found current. */
  checked: number;
}

/** How many characters of configs are kept at most (the least recently used goes first). */
export const PARTLESS_CONFIGS_CHARACTERS = 32 * 1024 * 1024;

const FRAGMENTS = ["fragments"];
// One fragment's read has one shape, kept (prepared-query.ts); several fragments' vary with their count.
const revisionsQuery = (db: Kysely<Tables>) => db.selectFrom("fragments").select(["id", "organization_id", "revision"]);
const revisionQuery = preparedQuery((db, id) => revisionsQuery(db).where("id", "=", id));
const revisions = batchedReads(async (db, ids) => {
  const rows = ids.length === 1 ? await revisionQuery.all(db, ids[0]!) : await revisionsQuery(db).where("id", "in", ids).execute();
  return new Map(rows.map((row) => [row.id, row]));
});

export function createPartlessConfigs(maxCharacters = PARTLESS_CONFIGS_CHARACTERS): PartlessConfigs {
  const entries = new Map<string, Kept>();
  let characters = 0;

  async function unchanged({ db, versions }: Parameters<PartlessConfigs["of"]>[0], organizationId: string, entry: Kept): Promise<boolean> {
    const stamp = db.isTransaction ? undefined : versions.stamp(FRAGMENTS);
    if (stamp !== undefined && stamp === entry.checked) return true;
    const rows = await Promise.all([...entry.fragments.keys()].map((id) => revisions.read(db, id)));
    const fragmentRevisions = [...entry.fragments.values()];
    if (rows.some((row, i) => row === undefined || row.organization_id !== organizationId || row.revision !== fragmentRevisions[i])) return false;
    if (stamp !== undefined) entry.checked = stamp;
    return true;
  }

  function keep(key: string, entry: Kept): void {
    forget(key);
    entries.set(key, entry);
    characters += entry.characters;
    for (const [oldest] of entries) {
      if (characters <= maxCharacters) break;
      forget(oldest);
    }
  }

  function forget(key: string): void {
    const entry = entries.get(key);
    if (entry === undefined) return;
    entries.delete(key);
    characters -= entry.characters;
  }

  async function merge(store: Parameters<PartlessConfigs["of"]>[0], part: Parameters<PartlessConfigs["of"]>[1], ownConfig: string, time: number, key: string): Promise<Kept> {
    const { db } = store;
    const checked = db.isTransaction ? NaN : store.versions.stamp(FRAGMENTS);
    const fragments = new Map<string, number>();
    const effective = await effectiveConfigFrom(db, part, ownConfig, time, fragments);
    const config = toPartlessConfig(effective.config).config;
    const kept = { config, bytes: toBinary(RobotConfigSchema, config), fragments, characters: key.length + JSON.stringify(effective.config).length, checked };
    keep(key, kept);
    return kept;
  }

  // The merges under way, by key; a transaction's own are not shared.
  const merging = new Map<string, Promise<Kept>>();

  return {
    async of(store, part, ownConfig, time) {
      const key = `${part.organization_id}\u0000${ownConfig}`;
      const entry = entries.get(key);
      if (entry !== undefined && (await unchanged(store, part.organization_id, entry))) {
        // Used again: it becomes the most recent.
        keep(key, entry);
        return entry;
      }
      if (store.db.isTransaction) return merge(store, part, ownConfig, time, key);
      const under = merging.get(key);
      if (under !== undefined) {
        // Another's merge began before this part asked: used once its fragments are found current.
        const theirs = await under.catch(() => undefined);
        if (theirs !== undefined && (await unchanged(store, part.organization_id, theirs))) return theirs;
      }
      const mine = merge(store, part, ownConfig, time, key);
      merging.set(key, mine);
      const done = () => void (merging.get(key) === mine && merging.delete(key));
      mine.then(done, done);
      return mine;
    },
  };
}
