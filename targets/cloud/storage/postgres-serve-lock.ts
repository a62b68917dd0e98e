// Whether a svc-cloud serves a PostgreSQL database, told by PostgreSQL itself. Every serving process
// holds a shared advisory lock, on a connection of its own, for as long as it serves: several
// replicas serve one database side by side. A restore takes the same lock exclusively, so it never
// replaces the database under a running service, and no service starts while a restore runs. A
// lock held by a process that died goes with its connection. A serving process whose connection is
// lost (PostgreSQL restarted) takes its claim again on a new one, waiting longer between tries up
// to half a minute; a restore that got in meanwhile is said in the log at each try. (The data
// folder's PID file, serve-lock.ts, still keeps one server per folder: the folder's files, uploads
// and releases, are swept at start, which a second server on the same folder would do under the
// first.)
import pg from "pg";
import { Code, SvcError, type Clock } from "../../../core/index.js";
import { withoutPassword } from "./database-url.js";
import { fromPostgresError } from "./postgres-error.js";
import { LOCK_CLASS, SERVING } from "./postgres-locks.js";

export type DatabaseClaim = "serve" | "restore";

/** Who is told when a serving claim was lost, and when to try again. */
export interface ClaimKeeping {
  clock: Clock;
  log: (line: string) => void;
}

const RETAKE_FIRST_MS = 1000;
const RETAKE_MAX_MS = 30_000;

/**
 * Claims the database at `url` for serving (shared) or restoring (alone); answers the release.
 * Refused while the other kind holds it. With `keeping`, a claim whose connection is lost is taken again.
 */
export async function claimDatabase(url: string, claim: DatabaseClaim, keeping?: ClaimKeeping): Promise<() => Promise<void>> {
  let client = await take(url, claim);
  let released = false;
  let failures = 0;
  let retry: unknown;

  const lost = () => {
    if (released || keeping === undefined || retry !== undefined) return;
    const waitMs = Math.min(RETAKE_FIRST_MS * 2 ** failures, RETAKE_MAX_MS);
    retry = keeping.clock.setTimeout(() => {
      retry = undefined;
      take(url, claim).then(
        (next) => {
          if (released) return void next.end().catch(() => undefined);
          client = next;
          failures = 0;
          watch(next);
          keeping.log(`svc-cloud: holding the claim to serve ${withoutPassword(url)} again`);
        },
        (thrown: unknown) => {
          failures++;
          keeping.log(`svc-cloud: taking the claim to serve ${withoutPassword(url)} again failed (${(thrown as Error).message}); trying again`);
          lost();
        },
      );
    }, waitMs);
  };

  const watch = (which: pg.Client) => {
    const gone = () => {
      if (client !== which) return;
      which.end().catch(() => undefined);
      lost();
    };
    which.on("error", gone);
    which.on("end", gone);
  };

  watch(client);
  return async () => {
    released = true;
    if (retry !== undefined) keeping?.clock.clearTimeout(retry);
    await client.end().catch(() => undefined);
  };
}

/** A connection holding the claim. */
async function take(url: string, claim: DatabaseClaim): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, keepAlive: true });
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
  return client;
}

function refusal(url: string, claim: DatabaseClaim): SvcError {
  const database = withoutPassword(url);
  return claim === "serve"
    ? new SvcError(Code.FailedPrecondition, `a restore of ${database} is under way: start svc-cloud once it has finished`)
    : new SvcError(Code.FailedPrecondition, `svc-cloud serves ${database} (one process or more): stop every one, then restore`);
}
