// `svc-cloud backup FILE`: a consistent copy of the whole store, made with SQLite's online backup
// (with --database, pg_dump's custom format: open-postgres-store.ts), so it runs while the service
// serves the same store. An existing FILE is not overwritten: an
// operator's earlier backup is never lost to a typo.
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { Code, SvcError } from "../../../core/index.js";
import type { Store } from "../storage/open-store.js";

export async function backupCommand(store: Store, file: string | undefined): Promise<{ file: string; bytes: number }> {
  if (file === undefined) throw new SvcError(Code.InvalidArgument, "backup needs the FILE to write (svc-cloud backup FILE)");
  const target = resolve(file);
  if (existsSync(target)) throw new SvcError(Code.AlreadyExists, `${target} already exists: choose another name or remove it first`);
  await store.backup(target);
  return { file: target, bytes: statSync(target).size };
}
