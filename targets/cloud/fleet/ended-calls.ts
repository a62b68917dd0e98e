// The calls that ended lately, by uuid: a caller sends its last candidates and its "done" after
// the machine has finished (nothing waits for them to arrive), and those are taken and dropped
// rather than answered NOT_FOUND, which a client would report as a failure. Only who made the
// call and which machine it named are kept, for a minute, and at most `max` of them: the oldest
// are forgotten first, so a flood of short calls costs no more than that.
import type { Clock } from "../../../core/index.js";

export interface EndedCall {
  /** The principal that made the call (its subject). */
  readonly caller: string;
  /** The names of the machine it called. */
  readonly hosts: ReadonlySet<string>;
}

export interface EndedCalls {
  add(uuid: string, call: EndedCall): void;
  /** The call `uuid` when it ended within the window, else undefined. */
  find(uuid: string): EndedCall | undefined;
  readonly size: number;
}

export function createEndedCalls(clock: Clock, options: { keepMs: number; max: number }): EndedCalls {
  // In the order they ended, so the oldest come first.
  const ended = new Map<string, EndedCall & { at: number }>();

  const forgetOld = () => {
    const since = clock.now() - options.keepMs;
    for (const [uuid, call] of ended) {
      if (call.at > since && ended.size <= options.max) break;
      ended.delete(uuid);
    }
  };

  return {
    add(uuid, call) {
      ended.delete(uuid);
      ended.set(uuid, { ...call, at: clock.now() });
      forgetOld();
    },
    find(uuid) {
      const call = ended.get(uuid);
      return call !== undefined && call.at > clock.now() - options.keepMs ? call : undefined;
    },
    get size() {
      return ended.size;
    },
  };
}
