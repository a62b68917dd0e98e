// What the control page's charts are given of the recorder's last hour: every metric name, and for
// the metrics asked the times and values, at most two points per column of time (the lowest and
// the highest, in time order) so an hour of readings stays small and a one-second spike still
// shows; a metric that appears later in the hour starts where it appears; values are the float32
// as recorded, in their shortest decimal; a reading that is not a number is left out.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createManualClock, type MetricTree } from "../../../core/index.js";
import { createFtdcRecorder, type FtdcRecorder } from "../../../targets/linux/server/ftdc/index.js";
import { diagnosticsSeries } from "../../../targets/linux/server/page/index.js";

const start = Date.UTC(2026, 10, 29, 7, 0, 0);
const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const done of cleanup.splice(0)) done();
});

/** A recorder sampling `tree(second)` once a second for `seconds` seconds of a manual clock. */
function recorded(seconds: number, tree: (second: number) => MetricTree): FtdcRecorder {
  const dir = mkdtempSync(join(tmpdir(), "svc-diagnostics-series-"));
  const clock = createManualClock(start);
  let second = 0;
  const recorder = createFtdcRecorder({ dir, clock, sources: [{ sample: () => tree(second++) }] });
  cleanup.push(() => (recorder.close(), rmSync(dir, { recursive: true, force: true })));
  clock.advance(seconds * 1000);
  return recorder;
}

describe("the diagnostics series for the page", () => {
  it("gives every point of a short hour, with its time in ms and the value recorded", () => {
    const recorder = recorded(5, (s) => ({ process: { rss_bytes: 1000 + s, cpu_user_pct: 0.1 * s } }));
    const { names, series } = diagnosticsSeries(recorder.lastHour(), ["process.cpu_user_pct"], 300);
    expect(names).toEqual(["process.cpu_user_pct", "process.rss_bytes"]);
    expect(series).toEqual([{ name: "process.cpu_user_pct", timesMs: [1, 2, 3, 4, 5].map((s) => start + s * 1000), values: [0, 0.1, 0.2, 0.3, 0.4] }]);
  });

  it("bounds an hour of readings to two points a column and keeps a one-second spike", () => {
    const recorder = recorded(3600, (s) => ({ process: { event_loop_delay_max_ms: s === 1234 ? 250 : 1 + (s % 7) } }));
    expect(recorder.lastHour().length).toBeGreaterThan(3500);
    const [delay] = diagnosticsSeries(recorder.lastHour(), ["process.event_loop_delay_max_ms"], 300).series;
    expect(delay!.values.length).toBeLessThanOrEqual(600);
    expect(delay!.values.length).toBeGreaterThan(500);
    expect(Math.max(...delay!.values)).toBe(250);
    expect(Math.min(...delay!.values)).toBe(1);
    expect(delay!.timesMs).toEqual([...delay!.timesMs].sort((a, b) => a - b));
    // Sample s is taken at the end of second s + 1.
    expect(delay!.timesMs[delay!.values.indexOf(250)]).toBe(start + 1235 * 1000);
  });

  it("gives every metric when none is named, one that appears later from where it appears, and leaves out names not recorded", () => {
    const recorder = recorded(4, (s) => (s < 2 ? { api: { calls: s } } : { api: { calls: s, errors: 1 } }));
    const all = diagnosticsSeries(recorder.lastHour(), undefined, 300);
    expect(all.names).toEqual(["api.calls", "api.errors"]);
    expect(all.series.map((s) => [s.name, s.values])).toEqual([
      ["api.calls", [0, 1, 2, 3]],
      ["api.errors", [1, 1]],
    ]);
    expect(diagnosticsSeries(recorder.lastHour(), ["api.errors", "<b>nothing</b>", "api.errors"], 300).series.map((s) => s.name)).toEqual(["api.errors"]);
  });

  it("leaves out readings that are not numbers, and answers an empty hour with nothing", () => {
    const recorder = recorded(3, (s) => ({ graph: { resources: { READY: s === 1 ? Number.NaN : 2 } } }));
    expect(diagnosticsSeries(recorder.lastHour(), ["graph.resources.READY"], 300).series[0]!.values).toEqual([2, 2]);
    expect(diagnosticsSeries([], undefined, 300)).toEqual({ names: [], series: [] });
  });
});
