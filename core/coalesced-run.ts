// A job run one at a time however often it is asked for: a request while it runs is served by
// one more run once that one is done (so nothing asked for after a run began waits for a later
// request), and the requests meanwhile merge into that one run. Every request resolves when the
// runs it may be served by are done.

export interface CoalescedRun {
  request(): Promise<void>;
  /** Resolves when no run is under way (at once when none is). */
  idle(): Promise<void>;
}

export function coalescedRun(job: () => Promise<void>, stopped: () => boolean = () => false): CoalescedRun {
  let running: Promise<void> | undefined;
  let again = false;
  return {
    request() {
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        do {
          again = false;
          await job();
        } while (again && !stopped());
      })().finally(() => {
        running = undefined;
      });
      return running;
    },
    idle: async () => {
      await running;
    },
  };
}
