// Waiting for something under a signal: the wait ends with the signal's reason as soon as the
// signal aborts (for a reason that counts), without leaving a listener behind either way.

/** `pending`, unless `signal` aborts first, or already has, with a reason `counts` accepts: then that reason. */
export function untilAborted<T>(pending: Promise<T>, signal: AbortSignal, counts: (reason: unknown) => boolean = () => true): Promise<T> {
  if (signal.aborted && counts(signal.reason)) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      if (counts(signal.reason)) reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
