// A value that is often ready at once (a token already verified, a credentials check answered from
// memory) and sometimes only later: the hot path goes on in the same turn when it is ready,
// without the promise and the microtask an `await` costs on every call.
export type MaybeAsync<T> = T | Promise<T>;

export function isPromise<T>(value: MaybeAsync<T>): value is Promise<T> {
  return typeof (value as Promise<T> | undefined)?.then === "function";
}

/** `next(value)` now if `value` is ready, or once it is. */
export function whenReady<T, U>(value: MaybeAsync<T>, next: (ready: T) => MaybeAsync<U>): MaybeAsync<U> {
  return isPromise(value) ? value.then(next) : next(value);
}
