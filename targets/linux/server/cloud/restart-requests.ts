// svc-cloud's restart requests (MarkPartForRestart), asked for with NeedsRestart as often as the
// cloud says (5 s). A request is honoured when the machine may restart (no configuration being
// applied, the maintenance window open); until then it waits, said once in the log and in
// /restart_status, and is looked at again at each check.
import { ConnectError } from "@connectrpc/connect";
import type { Clock, Logger } from "../../../../core/index.js";
import type { CloudConnection } from "../../cloud-link/cloud-connection.js";

export const DEFAULT_RESTART_CHECK_MS = 5_000;
/** However often the cloud asks to be asked, not more than once a second nor less than every 10 minutes. */
const CHECK_BOUNDS_MS = [1_000, 600_000] as const;

export interface RestartRequestsOptions {
  connection: CloudConnection;
  partId: string;
  clock: Clock;
  log: Logger;
  /** Whether the machine may restart now, and why not. */
  mayRestart(): Promise<{ allowed: boolean; reason: string }>;
  /** Starts the restart (svc-server's orderly stop, exiting with RESTART_EXIT_CODE). */
  restart(reason: string): void;
}

export interface RestartRequests {
  /** A request has come and waits for the machine to allow it. */
  pending(): boolean;
  close(): void;
}

export function followRestartRequests(options: RestartRequestsOptions): RestartRequests {
  const { connection, partId, clock, log } = options;
  let pending = false;
  let toldWaiting = "";
  let closed = false;
  let timer: unknown;
  const closing = new AbortController();

  // Phase: ask the cloud (unless a request already waits); the answer sets the next interval.
  async function ask(): Promise<number> {
    if (pending) return DEFAULT_RESTART_CHECK_MS;
    const answer = await connection.robot.needsRestart({ id: partId }, { signal: closing.signal });
    if (answer.mustRestart) {
      pending = true;
      log.info("svc-cloud asked for a restart");
    }
    const seconds = Number(answer.restartCheckInterval?.seconds ?? 0n);
    const ms = seconds > 0 ? seconds * 1000 : DEFAULT_RESTART_CHECK_MS;
    return Math.min(Math.max(ms, CHECK_BOUNDS_MS[0]), CHECK_BOUNDS_MS[1]);
  }

  // Phase: a waiting request is carried out once the machine allows it.
  async function honour(): Promise<void> {
    if (!pending) return;
    const decision = await options.mayRestart();
    if (decision.allowed) {
      closed = true;
      options.restart("svc-cloud asked for a restart");
      return;
    }
    if (decision.reason !== toldWaiting) log.info("the restart svc-cloud asked for waits", { reason: decision.reason });
    toldWaiting = decision.reason;
  }

  async function check(): Promise<void> {
    let next = DEFAULT_RESTART_CHECK_MS;
    try {
      next = await ask();
      await honour();
    } catch (thrown) {
      // The config source says when svc-cloud is away; this only tries again.
      log.debug("cannot ask svc-cloud whether to restart", { error: ConnectError.from(thrown).message });
    }
    if (!closed) timer = clock.setTimeout(() => void check(), next);
  }

  timer = clock.setTimeout(() => void check(), DEFAULT_RESTART_CHECK_MS);
  return {
    pending: () => pending,
    close() {
      closed = true;
      closing.abort();
      clock.clearTimeout(timer);
    },
  };
}
