// The last hour of diagnostics readings made small enough for a page to ask for every few
// seconds: every metric name recorded (in the order names first appear), and for each metric
// asked for its times (ms) and values, cut into `columns` equal spans of time of which each keeps
// only its lowest and its highest reading, in time order, as a chart's pixel columns would. So a
// metric is at most 2 × `columns` points whatever the period, and a spike is never smoothed away.
// Values are the shortest decimals of their float32; readings that are not finite are left out.
import { formatFloat32, ftdcTimeMs, type FtdcSeries } from "../../../../core/index.js";
import type { RecentReading } from "../ftdc/index.js";

export type DiagnosticsReading = Pick<RecentReading, "timeNs" | "names" | "values">;

export interface DiagnosticsSeries {
  /** Every metric of the readings. */
  names: string[];
  /** The metrics asked for that were recorded, in the order asked (or every one). */
  series: FtdcSeries[];
}

interface Column {
  at: number;
  lowTime: number;
  low: number;
  highTime: number;
  high: number;
}

/** `wanted` undefined: every metric. */
export function diagnosticsSeries(readings: readonly DiagnosticsReading[], wanted: readonly string[] | undefined, columns: number): DiagnosticsSeries {
  const names = allNames(readings);
  const known = new Set(names);
  const chosen = wanted ? [...new Set(wanted)].filter((name) => known.has(name)) : names;
  const series = chosen.map((name): FtdcSeries => ({ name, timesMs: [], values: [] }));
  const open: Array<Column | undefined> = chosen.map(() => undefined);
  const first = readings.length > 0 ? ftdcTimeMs(readings[0]!.timeNs) : 0;
  const span = readings.length > 0 ? ftdcTimeMs(readings[readings.length - 1]!.timeNs) - first : 0;
  const columnOf = (timeMs: number) => (span <= 0 ? 0 : Math.min(columns - 1, Math.floor(((timeMs - first) / span) * columns)));
  let schema: readonly string[] | undefined;
  let slots: number[] = [];
  for (const reading of readings) {
    if (reading.names !== schema) {
      schema = reading.names;
      slots = chosen.map((name) => reading.names.indexOf(name));
    }
    const timeMs = ftdcTimeMs(reading.timeNs);
    const at = columnOf(timeMs);
    for (let i = 0; i < chosen.length; i++) {
      const value = slots[i]! < 0 ? Number.NaN : reading.values[slots[i]!]!;
      if (!Number.isFinite(value)) continue;
      const column = open[i];
      if (column?.at === at) {
        if (value < column.low) Object.assign(column, { low: value, lowTime: timeMs });
        if (value > column.high) Object.assign(column, { high: value, highTime: timeMs });
        continue;
      }
      if (column) flush(column, series[i]!);
      open[i] = { at, low: value, lowTime: timeMs, high: value, highTime: timeMs };
    }
  }
  open.forEach((column, i) => column && flush(column, series[i]!));
  return { names, series };
}

function allNames(readings: readonly DiagnosticsReading[]): string[] {
  const seen = new Set<string>();
  let schema: readonly string[] | undefined;
  for (const reading of readings) {
    if (reading.names === schema) continue;
    schema = reading.names;
    for (const name of schema) seen.add(name);
  }
  return [...seen];
}

function flush(column: Column, into: FtdcSeries): void {
  const points: Array<[number, number]> = [[column.lowTime, column.low]];
  if (column.highTime !== column.lowTime) points.push([column.highTime, column.high]);
  if (column.highTime < column.lowTime) points.reverse();
  for (const [timeMs, value] of points) {
    into.timesMs.push(Math.round(timeMs));
    into.values.push(Number(formatFloat32(value)));
  }
}
