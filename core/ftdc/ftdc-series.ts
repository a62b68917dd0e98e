// Readings turned around for charts: one series per metric name, in the order names first
// appear, each with the times (ms) and values of the readings that carry it.
import type { FtdcReading } from "./ftdc-reader.js";
import { ftdcTimeMs } from "./ftdc-text.js";

export interface FtdcSeries {
  name: string;
  timesMs: number[];
  values: number[];
}

export function ftdcSeries(readings: Iterable<Pick<FtdcReading, "timeNs" | "names" | "values">>): FtdcSeries[] {
  const byName = new Map<string, FtdcSeries>();
  let names: readonly string[] | undefined;
  let slots: FtdcSeries[] = [];
  for (const reading of readings) {
    if (reading.names !== names) {
      names = reading.names;
      slots = names.map((name) => {
        let series = byName.get(name);
        if (!series) byName.set(name, (series = { name, timesMs: [], values: [] }));
        return series;
      });
    }
    const timeMs = ftdcTimeMs(reading.timeNs);
    for (let i = 0; i < slots.length; i++) {
      slots[i]!.timesMs.push(timeMs);
      slots[i]!.values.push(reading.values[i]!);
    }
  }
  return [...byName.values()];
}
