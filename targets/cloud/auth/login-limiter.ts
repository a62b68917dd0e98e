// Limits failed sign-ins: after `maxFailures` failures for one entity (a key id or an email), or
// ten times as many from one peer address (many machines may share an address behind NAT),
// within `windowMs`, further attempts are refused until the window has passed, whatever their
// credentials. A success does not clear a count, so guessing many entities from one address is
// limited too.
import { Code, SvcError, type Clock } from "../../../core/index.js";

export interface LoginLimiter {
  /** Throws ResourceExhausted while `entity` or `peer` is locked out. */
  check(entity: string, peer: string): void;
  failed(entity: string, peer: string): void;
}

const MAX_TRACKED = 10_000;

export function createLoginLimiter(clock: Clock, maxFailures = 10, windowMs = 5 * 60_000): LoginLimiter {
  const failures = new Map<string, number[]>();

  const recent = (name: string) => {
    const cutoff = clock.now() - windowMs;
    const times = (failures.get(name) ?? []).filter((t) => t > cutoff);
    if (times.length === 0) failures.delete(name);
    else failures.set(name, times);
    return times;
  };

  return {
    check: (entity, peer) => {
      if (recent(`entity:${entity}`).length >= maxFailures || recent(`peer:${peer}`).length >= maxFailures * 10) {
        throw new SvcError(Code.ResourceExhausted, "too many failed sign-in attempts; try again later");
      }
    },
    failed: (entity, peer) => {
      // Random entity names must not grow the table without end: past a bound, forget what expired.
      if (failures.size > MAX_TRACKED) for (const name of [...failures.keys()]) recent(name);
      for (const name of [`entity:${entity}`, `peer:${peer}`]) failures.set(name, [...recent(name), clock.now()]);
    },
  };
}
