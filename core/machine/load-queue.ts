// Loads one after another: a load reads the running configuration, decides and then changes it,
// which is wrong when two interleave (a quick second save racing the first). Each waits for the
// one before it, in the order they were handed in; one that fails fails only itself.
export interface LoadQueue {
  run<T>(work: () => Promise<T>): Promise<T>;
}

export function createLoadQueue(): LoadQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run(work) {
      const next = tail.then(work);
      tail = next.catch(() => undefined);
      return next;
    },
  };
}
