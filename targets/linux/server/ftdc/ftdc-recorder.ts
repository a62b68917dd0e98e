// FTDC for svc-server: once a period, every source is sampled, the metrics are flattened and
// appended to the current file in Viam's FTDC format (a schema document whenever the names
// change and at the head of every file), and kept in memory for the last hour, for a page to
// chart. Time comes from the clock passed in: its now() is the wall time in milliseconds. A
// write that fails is logged once and recording goes on in memory only.
import { createFtdcEncoder, every, flattenMetrics, type Clock, type FtdcReading, type Logger, type MetricTree } from "../../../../core/index.js";
import { createFtdcFiles, type FtdcFiles, type FtdcFilesOptions } from "./ftdc-files.js";
import type { FtdcSource } from "./ftdc-source.js";

export interface FtdcRecorderOptions extends Omit<FtdcFilesOptions, "now"> {
  clock: Clock;
  sources: readonly FtdcSource[];
  /** Default 1000 ms. */
  intervalMs?: number;
  /** How far back readings are kept in memory. Default one hour. */
  memoryMs?: number;
  log?: Pick<Logger, "warn">;
}

export type RecentReading = Omit<FtdcReading, "offset">;

export interface FtdcRecorder {
  /** Samples once now (what the timer does each period). */
  sample(): void;
  /** Readings of the last hour (`memoryMs`), oldest first. */
  lastHour(): RecentReading[];
  readonly files: FtdcFiles;
  /** Stops sampling and closes the current file. */
  close(): void;
}

export function createFtdcRecorder(options: FtdcRecorderOptions): FtdcRecorder {
  const { clock } = options;
  const memoryMs = options.memoryMs ?? 3_600_000;
  const files = createFtdcFiles({ ...options, now: () => clock.now() });
  const encoder = createFtdcEncoder();
  const memory: RecentReading[] = [];
  let names: readonly string[] = [];
  let writing = true;
  let stopTimer: (() => void) | undefined;

  const failed = new Set<FtdcSource>();
  const readSources = (): MetricTree => {
    const tree: MetricTree = {};
    for (const source of options.sources) {
      try {
        Object.assign(tree, source.sample());
      } catch (e) {
        // A source that fails is left out of this reading; said once.
        if (!failed.has(source)) options.log?.warn("an FTDC source failed", { error: String(e) });
        failed.add(source);
      }
    }
    return tree;
  };

  const write = (timeNs: bigint, values: number[]) => {
    if (!writing) return;
    try {
      if (files.append(encoder.encode(timeNs, names, values))) encoder.restart();
    } catch (e) {
      writing = false;
      options.log?.warn("FTDC stops writing files; it goes on in memory", { dir: options.dir, error: String(e) });
    }
  };

  const remember = (timeNs: bigint, values: number[]) => {
    memory.push({ timeNs, names, values: Float32Array.from(values) });
    const oldest = timeNs - BigInt(memoryMs) * 1_000_000n;
    let drop = 0;
    while (drop < memory.length && memory[drop]!.timeNs < oldest) drop++;
    if (drop > 0) memory.splice(0, drop);
  };

  const recorder: FtdcRecorder = {
    sample() {
      const flat = flattenMetrics(readSources());
      // One names array per schema: readings that share it share the array.
      if (!sameNames(names, flat.names)) names = flat.names;
      const timeNs = BigInt(Math.round(clock.now() * 1000)) * 1000n;
      write(timeNs, flat.values);
      remember(timeNs, flat.values);
    },
    lastHour: () => memory.slice(),
    files,
    close() {
      stopTimer?.();
      stopTimer = undefined;
      files.close();
      for (const source of options.sources) source.close?.();
    },
  };
  stopTimer = every(clock, options.intervalMs ?? 1000, () => recorder.sample());
  return recorder;
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}
