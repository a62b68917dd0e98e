// A job asked for while it runs runs once more when it is done, and only once however many times
// it was asked meanwhile: what a cloud-managed machine relies on so that a revision announced
// during a fetch (or during the cache's write) is fetched at once, not at the next poll.
import { describe, expect, it } from "vitest";
import { coalescedRun } from "../../core/index.js";

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe("coalescedRun", () => {
  it("runs once more for the requests made during a run, merged into one", async () => {
    const gates = [gate(), gate()];
    let runs = 0;
    const job = coalescedRun(async () => {
      await gates[runs++]!.opened;
    });
    const first = job.request();
    const during = [job.request(), job.request(), job.request()];
    expect(runs).toBe(1);
    gates[0]!.open();
    await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toBe(2);
    gates[1]!.open();
    await Promise.all([first, ...during]);
    expect(runs).toBe(2);
    await job.idle();
    // Idle now: a new request is a new run.
    gates.push(gate());
    gates[2]!.open();
    await job.request();
    expect(runs).toBe(3);
  });

  it("does not run again once stopped, and idle waits for the run under way", async () => {
    const g = gate();
    let runs = 0;
    let stopped = false;
    const job = coalescedRun(async () => {
      runs++;
      await g.opened;
    }, () => stopped);
    void job.request();
    void job.request();
    stopped = true;
    let idle = false;
    const waiting = job.idle().then(() => (idle = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(idle).toBe(false);
    g.open();
    await waiting;
    expect(runs).toBe(1);
  });
});
