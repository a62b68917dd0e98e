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
  /** How many entities and peers it remembers. */
  tracked(): number;
}

/** The most entities and peers remembered at once. */
export const MAX_TRACKED = 10_000;

export function createLoginLimiter(clock: Clock, maxFailures = 10, windowMs = 5 * 60_000): LoginLimiter {
  const failures = new Map<string, number[]>();

  const recent = (name: string) => {
    const cutoff = clock.now() - windowMs;
    const times = (failures.get(name) ?? []).filter((t) => t > cutoff);
    if (times.length === 0) failures.delete(name);
    else failures.set(name, times);
    return times;
  };

  /**
   * Random entities from many addresses must not grow the table without end. Past the bound it is
   * brought down to half (so compacting is rare): what expired goes first, then the oldest of
   * those not locked out, and only then the oldest locked out.
   */
  const compact = () => {
    for (const name of [...failures.keys()]) recent(name);
    const locked = (name: string, times: number[]) => times.length >= (name.startsWith("peer:") ? maxFailures * 10 : maxFailures);
    for (const keepLocked of [true, false]) {
      for (const [name, times] of failures) {
        if (failures.size <= MAX_TRACKED / 2) return;
        if (!keepLocked || !locked(name, times)) failures.delete(name);
      }
    }
  };

  return {
    check: (entity, peer) => {
      if (recent(`entity:${entity}`).length >= maxFailures || recent(`peer:${peer}`).length >= maxFailures * 10) {
        throw new SvcError(Code.ResourceExhausted, "too many failed sign-in attempts; try again later");
      }
    },
    failed: (entity, peer) => {
      for (const name of [`entity:${entity}`, `peer:${peer}`]) failures.set(name, [...recent(name), clock.now()]);
      if (failures.size > MAX_TRACKED) compact();
    },
    tracked: () => failures.size,
  };
}
