// Whether a svc-cloud serves a PostgreSQL database, told by PostgreSQL itself. Every serving process
// holds a shared advisory lock, on a connection of its own, for as long as it serves: several
// replicas serve one database side by side. A restore takes the same lock exclusively, so it never
// replaces the database under a running service, and no service starts while a restore runs. A
// lock held by a process that died goes with its connection. (The data folder's PID file,
// serve-lock.ts, still keeps one server per folder: the folder's files, uploads and releases, are
// swept at start, which a second server on the same folder would do under the first.)
import pg from "pg";
import { Code, SvcError } from "../../../core/index.js";
import { withoutPassword } from "./database-url.js";
import { fromPostgresError } from "./postgres-error.js";
import { LOCK_CLASS, SERVING } from "./postgres-locks.js";

export type DatabaseClaim = "serve" | "restore";

/** Claims the database at `url` for serving (shared) or restoring (alone); answers the release. Refused while the other kind holds it. */
export async function claimDatabase(url: string, claim: DatabaseClaim): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: url });
  // The claim lasts as long as this connection; an error on it ends the claim, not the process.
  client.on("error", () => undefined);
  try {
    await client.connect();
    const how = claim === "serve" ? "pg_try_advisory_lock_shared" : "pg_try_advisory_lock";
    const { rows } = await client.query<{ taken: boolean }>(`select ${how}($1, $2) as taken`, [LOCK_CLASS, SERVING]);
    if (rows[0]?.taken !== true) throw refusal(url, claim);
  } catch (thrown) {
    await client.end().catch(() => undefined);
    throw fromPostgresError(thrown);
  }
  return async () => {
    await client.end().catch(() => undefined);
  };
}

function refusal(url: string, claim: DatabaseClaim): SvcError {
  const database = withoutPassword(url);
  return claim === "serve"
    ? new SvcError(Code.FailedPrecondition, `a restore of ${database} is under way: start svc-cloud once it has finished`)
    : new SvcError(Code.FailedPrecondition, `svc-cloud serves ${database} (one process or more): stop every one, then restore`);
}
