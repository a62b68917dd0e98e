// Whether a newly activated svc-server version has proven itself. A new version is on probation:
// it must serve within the start timeout, and must not crash repeatedly in its first minutes.
// Failing either means roll back to the previous version and mark this one bad. Pure: the caller
// passes the times, so the same rules run under any clock.

export interface ProbationRules {
  /** A start that does not serve within this long fails probation at once. */
  startTimeoutMs: number;
  /** How long after activation crashes still count against the new version. */
  probationMs: number;
  /** This many exits within the probation period fail it. */
  maxCrashes: number;
}

export type ProbationVerdict =
  | { kind: "on-probation" }
  | { kind: "passed" }
  | { kind: "rollback"; reason: string };

export interface RollbackJudge {
  readonly version: string;
  /** The server served (its readiness answered). */
  started(now: number): ProbationVerdict;
  /** The server exited; `how` says how ("exited with code 1"). */
  exited(now: number, how: string): ProbationVerdict;
  /** The server did not serve within the start timeout. */
  startTimedOut(now: number): ProbationVerdict;
  /** Where the version stands at `now` (probation ends by time alone). */
  verdict(now: number): ProbationVerdict;
}

export const DEFAULT_PROBATION_MS = 5 * 60_000;
export const DEFAULT_MAX_CRASHES = 3;

export function createRollbackJudge(version: string, activatedAt: number, rules: ProbationRules): RollbackJudge {
  let crashes = 0;
  let servedOnce = false;
  let failure: string | undefined;
  const minutes = (ms: number) => `${Math.round((ms / 60_000) * 100) / 100} min`;

  function verdict(now: number): ProbationVerdict {
    if (failure !== undefined) return { kind: "rollback", reason: failure };
    if (servedOnce && now - activatedAt >= rules.probationMs) return { kind: "passed" };
    return { kind: "on-probation" };
  }

  return {
    version,
    started(now) {
      servedOnce = true;
      return verdict(now);
    },
    exited(now, how) {
      if (failure === undefined && now - activatedAt < rules.probationMs) {
        crashes++;
        if (crashes >= rules.maxCrashes) {
          failure = `svc-server ${version} stopped ${crashes} times within ${minutes(rules.probationMs)} of its activation (last: ${how})`;
        }
      }
      return verdict(now);
    },
    startTimedOut(now) {
      if (failure === undefined && now - activatedAt < rules.probationMs + rules.startTimeoutMs) {
        failure = `svc-server ${version} did not serve within the start timeout (${minutes(rules.startTimeoutMs)})`;
      }
      return verdict(now);
    },
    verdict,
  };
}
