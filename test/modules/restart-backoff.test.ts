import { describe, expect, it } from "vitest";
import { createRestartBackoff } from "../../targets/linux/modules/index.js";

describe("the restart backoff of a crashing module", () => {
  it("waits 100 ms after the first failure, doubling with each failure in a row up to 30 s", () => {
    const backoff = createRestartBackoff();
    const delays = Array.from({ length: 12 }, (_, i) => backoff.failed(i * 10));
    expect(delays).toEqual([100, 200, 400, 800, 1600, 3200, 6400, 12800, 25600, 30000, 30000, 30000]);
    expect(backoff.consecutiveFailures(200)).toBe(12);
  });

  it("counts from zero again once the module has stayed up for a healthy minute", () => {
    const backoff = createRestartBackoff();
    backoff.failed(0);
    backoff.failed(1_000);
    backoff.started(2_000);
    expect(backoff.consecutiveFailures(30_000)).toBe(2);
    expect(backoff.failed(30_000)).toBe(400);
    backoff.started(31_000);
    expect(backoff.consecutiveFailures(91_000)).toBe(0);
    expect(backoff.failed(91_000)).toBe(100);
  });
});
