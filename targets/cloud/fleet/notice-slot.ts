// Where a watch stream's notices wait to be sent. Only the newest is kept: a notice only says
// "fetch Config now", and Config always answers the newest revision, so a machine behind by
// several edits needs one fetch, not one per edit (and a slow reader cannot grow a queue).
import type { Clock } from "../../../core/index.js";

export type SlotWait<T> = { kind: "notice"; notice: T } | { kind: "quiet" } | { kind: "ended" };

export interface NoticeSlot<T> {
  put(notice: T): void;
  /** The newest notice once there is one; `quiet` after `quietMs` without any; `ended` once `signal` aborts. */
  take(signal: AbortSignal, quietMs: number): Promise<SlotWait<T>>;
}

export function createNoticeSlot<T>(clock: Clock): NoticeSlot<T> {
  let pending: T | undefined;
  let wake: (() => void) | undefined;
  return {
    put: (notice) => {
      pending = notice;
      wake?.();
    },
    take: (signal, quietMs) =>
      new Promise((resolve) => {
        const settle = () => {
          clock.clearTimeout(timer);
          signal.removeEventListener("abort", settle);
          wake = undefined;
          if (signal.aborted) return resolve({ kind: "ended" });
          if (pending === undefined) return resolve({ kind: "quiet" });
          const notice = pending;
          pending = undefined;
          resolve({ kind: "notice", notice });
        };
        const timer = clock.setTimeout(settle, quietMs);
        if (signal.aborted || pending !== undefined) return settle();
        wake = settle;
        signal.addEventListener("abort", settle);
      }),
  };
}
