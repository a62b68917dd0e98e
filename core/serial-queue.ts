// Work that reads something, decides and then changes it (a link swap after reading the current
// link, a state file rewritten from what it held, a configuration applied over the running one)
// is wrong when two pieces of it interleave: the queue runs them one after the other, in the
// order they were asked for. A piece that fails fails only its own caller; the next one still
// runs.
export interface SerialQueue {
  run<T>(work: () => Promise<T>): Promise<T>;
}

export function createSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run(work) {
      const next = tail.then(work);
      tail = next.catch(() => undefined);
      return next;
    },
  };
}
