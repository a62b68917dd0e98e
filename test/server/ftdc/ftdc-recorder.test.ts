// The FTDC recorder driven by a manual clock: a reading each second into FTDC files that rotate at
// their size limit keeping 20, a new schema when a metric appears, the last hour in memory, and a
// folder it cannot write leaving it recording in memory.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createManualClock, readFtdc, type FtdcReading, type MetricTree } from "../../../core/index.js";
import { createFtdcRecorder, FTDC_FILE_PATTERN, type FtdcRecorder, type FtdcSource } from "../../../targets/linux/server/ftdc/index.js";

const start = Date.UTC(2026, 10, 29, 7, 0, 0);
const dirs: string[] = [];
const recorders: FtdcRecorder[] = [];
afterEach(() => {
  for (const r of recorders.splice(0)) r.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-ftdc-recorder-"));
  dirs.push(dir);
  return dir;
}

/** A source whose metrics the test sets. */
function settable(initial: MetricTree): FtdcSource & { set(tree: MetricTree): void } {
  let tree = initial;
  return { sample: () => tree, set: (next) => void (tree = next) };
}

function recorder(options: Parameters<typeof createFtdcRecorder>[0]): FtdcRecorder {
  const r = createFtdcRecorder(options);
  recorders.push(r);
  return r;
}

const readAll = (files: string[]): FtdcReading[] => files.flatMap((f) => [...readFtdc(readFileSync(f), { source: f })]);

describe("the FTDC recorder", () => {
  it("records every source once a second into a file in FTDC format", () => {
    const clock = createManualClock(start);
    const dir = join(folder(), "diagnostics.data", "local");
    const counter = settable({ api: { calls: 0 } });
    const r = recorder({ dir, clock, sources: [counter, { sample: () => ({ graph: { resources: { READY: 2 } } }) }] });
    expect(r.files.list()).toEqual([]);
    for (let i = 1; i <= 3; i++) {
      counter.set({ api: { calls: i * 10 } });
      clock.advance(1000);
    }
    const files = r.files.list();
    expect(files.map((f) => FTDC_FILE_PATTERN.test(basename(f)))).toEqual([true]);
    const readings = readAll(files);
    expect(readings.map((x) => [x.timeNs, [...x.names], [...x.values]])).toEqual([
      [BigInt(start + 1000) * 1_000_000n, ["api.calls", "graph.resources.READY"], [10, 2]],
      [BigInt(start + 2000) * 1_000_000n, ["api.calls", "graph.resources.READY"], [20, 2]],
      [BigInt(start + 3000) * 1_000_000n, ["api.calls", "graph.resources.READY"], [30, 2]],
    ]);
  });

  it("rotates at the size limit, each file beginning with its schema, and keeps the newest 20", () => {
    const clock = createManualClock(start);
    const dir = folder();
    const source = settable({ m: { a: 0 } });
    const r = recorder({ dir, clock, sources: [source], maxFileBytes: 100 });
    for (let i = 1; i <= 200; i++) {
      source.set({ m: { a: i, b: i * 2 } });
      clock.advance(1000);
    }
    const files = r.files.list();
    expect(files).toHaveLength(20);
    for (const file of files) expect(readFileSync(file)[0]).toBe(0x01);
    // The newest files, whole: the readings run on without a gap up to the last one taken.
    const values = readAll(files).map((x) => x.values[0]);
    expect(values.at(-1)).toBe(200);
    expect(values).toEqual(values.map((_, i) => 200 - values.length + 1 + i));
    expect(r.files.closed().length).toBeGreaterThan(20);
  });

  it("writes a new schema mid-file when a metric appears, and the reader follows it", () => {
    const clock = createManualClock(start);
    const dir = folder();
    const modules = settable({ modules: {} });
    const r = recorder({ dir, clock, sources: [{ sample: () => ({ process: { rss_bytes: 1000 } }) }, modules] });
    clock.advance(2000);
    modules.set({ modules: { counter: { rss_bytes: 5000, cpu_user_pct: 1.5 } } });
    clock.advance(2000);
    const files = r.files.list();
    expect(files).toHaveLength(1);
    const readings = readAll(files);
    expect(readings.map((x) => x.names.join(" "))).toEqual([
      "process.rss_bytes",
      "process.rss_bytes",
      "modules.counter.cpu_user_pct modules.counter.rss_bytes process.rss_bytes",
      "modules.counter.cpu_user_pct modules.counter.rss_bytes process.rss_bytes",
    ]);
    expect([...readings[3]!.values]).toEqual([1.5, 5000, 1000]);
  });

  it("keeps the last hour of readings in memory, oldest first", () => {
    const clock = createManualClock(start);
    const r = recorder({ dir: folder(), clock, sources: [{ sample: () => ({ a: { b: clock.now() - start } }) }], memoryMs: 60_000 });
    clock.advance(90_000);
    const recent = r.lastHour();
    expect(recent).toHaveLength(61);
    expect(recent[0]!.values[0]).toBe(30_000);
    expect(recent.at(-1)!.values[0]).toBe(90_000);
    expect(recent.at(-1)!.names).toEqual(["a.b"]);
  });

  it("goes on in memory, saying so once, when its folder cannot be written", () => {
    const clock = createManualClock(start);
    const blocker = join(folder(), "a-file");
    writeFileSync(blocker, "");
    const warnings: string[] = [];
    const r = recorder({ dir: join(blocker, "ftdc"), clock, sources: [{ sample: () => ({ a: { b: 1 } }) }], log: { warn: (m) => void warnings.push(m) } });
    clock.advance(3000);
    expect(warnings).toEqual(["FTDC stops writing files; it goes on in memory"]);
    expect(r.lastHour()).toHaveLength(3);
  });

  it("leaves out a source that throws, and records the others", () => {
    const clock = createManualClock(start);
    const warnings: string[] = [];
    const r = recorder({
      dir: folder(),
      clock,
      sources: [{ sample: () => ({ a: { ok: 1 } }) }, { sample: () => { throw new Error("no /proc here"); } }],
      log: { warn: (m) => void warnings.push(m) },
    });
    clock.advance(2000);
    expect(r.lastHour().map((x) => [...x.names])).toEqual([["a.ok"], ["a.ok"]]);
    expect(warnings).toEqual(["an FTDC source failed"]);
  });

  it("stops sampling once closed", () => {
    const clock = createManualClock(start);
    const r = recorder({ dir: folder(), clock, sources: [{ sample: () => ({ a: { b: 1 } }) }] });
    clock.advance(1000);
    r.close();
    clock.advance(5000);
    expect(r.lastHour()).toHaveLength(1);
    expect(clock.pending()).toBe(0);
  });
});
