// `svc-cloud restore FILE`: puts a backup in place of the data folder's store (with --database, in
// the PostgreSQL database instead: restore-postgres.ts). Refused while a svc-cloud serves the
// folder (it holds the store open). FILE is checked first on a copy: it must be a svc-cloud store,
// whole, and no newer than this svc-cloud; the copy is brought to the current schema. Only then is
// the old store moved aside (`svc-cloud.db.before-restore-TIME`, its WAL with it) and the copy put
// in its place, so a refusal at any step leaves the folder as it was.
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readSync, renameSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import Database from "better-sqlite3";
import { Code, SvcError } from "../../../core/index.js";
import { migrations } from "../storage/migrations/index.js";
import { openStoreFile, storeFile } from "../storage/open-store.js";
import { servingPid } from "../storage/serve-lock.js";
import { restorePostgres } from "./restore-postgres.js";

export interface RestoreResult {
  restored: string;
  /** Where the store it replaced was kept, when there was one. */
  kept?: string;
}

/** SQLite's companions of a database file in WAL mode. */
const COMPANIONS = ["-wal", "-shm"];

/** With `database`, the PostgreSQL it names is restored (restore-postgres.ts) instead of the data folder's SQLite file. */
export async function restoreCommand(dataDir: string, file: string | undefined, now: number, database?: string): Promise<RestoreResult> {
  if (file === undefined) throw new SvcError(Code.InvalidArgument, "restore needs the backup FILE to restore (svc-cloud restore FILE)");
  const source = resolve(file);
  refuseWhileServed(dataDir);
  if (!existsSync(source)) throw new SvcError(Code.NotFound, `${source}: no such file`);
  refuseOtherKind(source, database);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const stamp = new Date(now).toISOString().replace(/[:.]/g, "-");
  if (database !== undefined) return { restored: source, ...(await restorePostgres({ dataDir, database, source, stamp })) };
  const staging = `${storeFile(dataDir)}.restoring-${stamp}`;
  try {
    copyFileSync(source, staging);
    checkIsStore(staging, source);
    const store = await openStoreFile(staging);
    await store.close();
    refuseWhileServed(dataDir);
    const live = storeFile(dataDir);
    let kept: string | undefined;
    if (existsSync(live)) {
      kept = `${live}.before-restore-${stamp}`;
      renameSync(live, kept);
      for (const suffix of COMPANIONS) if (existsSync(live + suffix)) renameSync(live + suffix, kept + suffix);
    }
    renameSync(staging, live);
    return { restored: source, kept };
  } finally {
    for (const suffix of ["", ...COMPANIONS]) rmSync(staging + suffix, { force: true });
  }
}

/** A backup of the other database is named as such: pg_dump's archives begin "PGDMP", SQLite's files "SQLite format 3". */
function refuseOtherKind(source: string, database: string | undefined): void {
  const head = Buffer.alloc(16);
  const fd = openSync(source, "r");
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (database !== undefined && head.toString("latin1").startsWith("SQLite format 3")) {
    throw new SvcError(Code.InvalidArgument, `${source} is a backup of a SQLite store: restore it without --database; nothing was changed`);
  }
  if (database === undefined && head.toString("latin1").startsWith("PGDMP")) {
    throw new SvcError(Code.InvalidArgument, `${source} is a backup of a PostgreSQL store: restore it with --database URL; nothing was changed`);
  }
}

function refuseWhileServed(dataDir: string): void {
  const pid = servingPid(dataDir);
  if (pid !== undefined) throw new SvcError(Code.FailedPrecondition, `svc-cloud (PID ${pid}) is serving ${dataDir}: stop it, then restore`);
}

/** Throws unless `file` is a whole svc-cloud store this svc-cloud can bring up to date. */
function checkIsStore(file: string, named: string): void {
  const notStore = (why: string) => new SvcError(Code.InvalidArgument, `${named} is not a svc-cloud store: ${why}; nothing was changed`);
  let sqlite: Database.Database;
  try {
    sqlite = new Database(file, { fileMustExist: true });
  } catch (thrown) {
    throw notStore((thrown as Error).message);
  }
  try {
    let applied: string[];
    try {
      const check = sqlite.pragma("quick_check", { simple: true });
      if (check !== "ok") throw notStore(`SQLite finds it damaged (${String(check)})`);
      const table = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'").get();
      if (table === undefined) throw notStore("it has no svc-cloud migrations");
      applied = (sqlite.prepare("SELECT name FROM kysely_migration").all() as { name: string }[]).map((r) => r.name);
    } catch (thrown) {
      if (thrown instanceof SvcError) throw thrown;
      throw notStore((thrown as Error).message);
    }
    if (!applied.includes("0001-core")) throw notStore("it has no svc-cloud migrations");
    const unknown = applied.filter((name) => !(name in migrations));
    if (unknown.length > 0) throw new SvcError(Code.FailedPrecondition, `${named} was made by a newer svc-cloud (migrations ${unknown.join(", ")}): restore it with that version`);
  } finally {
    sqlite.close();
  }
}
