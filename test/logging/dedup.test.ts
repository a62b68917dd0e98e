// De-duplication on a manual clock: exactly what reaches the sink for 1, 3, 4 and 10 copies of a
// message in one window, the summary when the window ends, what counts as the same message, and
// when de-duplication is off.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NOISY_MESSAGE_THRESHOLD, NOISY_WINDOW_MS, type LogEntry } from "../../core/index.js";
import { runLogScenario } from "./log-scenario.js";
import { dedupScenarios as s } from "./scenarios.js";

const copy = (time = 0): LogEntry => ({
  time,
  level: "warn",
  logger: "svc.networking",
  message: "wifi lost",
  fields: { iface: "wlan0" },
});
const notice = (count: number, time = 0): LogEntry => ({
  ...copy(time),
  message: `Message logged ${count} times within 10 s; suppressing further copies until the window ends: wifi lost`,
});
const summary = (count: number, time: number): LogEntry => ({
  ...copy(time),
  message: `Message logged ${count} times in 10 s: wifi lost`,
});

describe("log de-duplication", () => {
  it("uses a threshold of 3 copies in a 10 second window", () => {
    expect([NOISY_MESSAGE_THRESHOLD, NOISY_WINDOW_MS]).toEqual([3, 10_000]);
  });

  it("writes a message logged once", () => {
    expect(runLogScenario(s.once).entries).toEqual([copy()]);
  });

  it("writes all 3 copies of a message logged 3 times, with no summary", () => {
    expect(runLogScenario(s.threeTimes).entries).toEqual([copy(), copy(), copy()]);
  });

  it("replaces the 4th copy with a notice, then sums up at the window's end", () => {
    expect(runLogScenario(s.fourTimes).entries).toEqual([copy(), copy(), copy(), notice(4), summary(4, 10_000)]);
  });

  it("drops copies 5 to 10 and counts them in the summary", () => {
    expect(runLogScenario(s.tenTimes).entries).toEqual([copy(), copy(), copy(), notice(4), summary(10, 10_000)]);
  });

  it("counts a window from the first copy and starts afresh when it ends", () => {
    const out = runLogScenario(s.spreadOverTheWindow).entries.map((e) => [e.time, e.message]);
    expect(out).toEqual([
      [0, "wifi lost"],
      [0, "wifi lost"],
      [0, "wifi lost"],
      [4_000, "Message logged 4 times within 10 s; suppressing further copies until the window ends: wifi lost"],
      [10_000, "Message logged 7 times in 10 s: wifi lost"],
      [10_000, "wifi lost"],
      [10_000, "wifi lost"],
    ]);
  });

  it("treats other fields or another logger as another message, but ignores timestamps in fields", () => {
    const out = runLogScenario(s.differentFields).entries;
    const per = (logger: string, fields: object) =>
      out.filter((e) => e.logger === logger && JSON.stringify(e.fields) === JSON.stringify(fields)).length;
    expect(per("svc.networking", { iface: "wlan0" })).toBe(4);
    expect(per("svc.networking", { iface: "wlan1" })).toBe(4);
    expect(per("svc.networking", {})).toBe(4);
    // Same message and fields once its timestamp is left out: all four copies are suppressed.
    expect(per("svc.networking", { iface: "wlan0", timestamp: 12 })).toBe(0);
    expect(per("svc.modmanager", { iface: "wlan0" })).toBe(4);
    expect(out).toHaveLength(16);
  });

  it("is off when the whole machine is at debug", () => {
    const out = runLogScenario(s.offUnderMachineDebug).entries;
    expect(out.map((e) => e.message)).toEqual(Array(6).fill("tick"));
  });

  it("is off for a logger at debug and on for the others", () => {
    const out = runLogScenario(s.offForALoggerAtDebug).entries;
    expect(out.filter((e) => e.logger === "svc.networking").map((e) => e.message)).toEqual(Array(6).fill("tick"));
    expect(out.filter((e) => e.logger === "svc.modmanager")).toHaveLength(5);
  });

  it("is off when disable_log_deduplication is true", () => {
    expect(runLogScenario(s.offWhenDisabled).entries.map((e) => e.message)).toEqual(Array(6).fill("tick"));
  });

  it("never hides a module's stderr, while the module's own lines are de-duplicated", () => {
    const out = runLogScenario(s.moduleStderrNeverHidden).entries;
    expect(out.filter((e) => e.logger === "arm-module.stderr").map((e) => e.message)).toEqual(
      Array(6).fill("panic: index out of range"),
    );
    expect(out.filter((e) => e.logger === "arm-module")).toHaveLength(5);
  });

  it("writes the summaries of windows still open when the engine closes", () => {
    const out = runLogScenario(s.closeWritesOpenSummaries).entries.map((e) => [e.time, e.message]);
    expect(out.slice(3)).toEqual([
      [0, "Message logged 4 times within 10 s; suppressing further copies until the window ends: tick"],
      [2_000, "Message logged 7 times in 2 s: tick"],
    ]);
  });
});

describe("log de-duplication for any number of copies", () => {
  it("writes min(n, 3) copies, then one notice and one summary counting all n", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 9_999 }), (n, spread) => {
        const steps = Array.from({ length: n }, () => [
          { log: "svc.x", level: "info", message: "m" },
          { advance: Math.floor(spread / n) },
        ]).flat();
        const out = runLogScenario({ steps: [...steps, { advance: 10_000 }] }).entries.map((e) => e.message);
        const expected = Array(Math.min(n, 3)).fill("m");
        if (n > 3) expected.push(expect.stringMatching(/^Message logged 4 times within/), `Message logged ${n} times in 10 s: m`);
        expect(out).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
