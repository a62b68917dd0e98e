// FTDC readings as CSV: a header row (`time`, then the metric names), then a row per reading. A
// schema change starts a new header row, so every row is read against the header just above it
// and the output can be written as the readings are read.
import type { FtdcReading } from "./ftdc-reader.js";
import { formatFloat32, formatFtdcTime } from "./ftdc-text.js";

/** A field as RFC 4180 wants it: quoted when it holds a comma, a quote or a line break. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The CSV lines (without line ends) of these readings. */
export function* ftdcCsvLines(readings: Iterable<FtdcReading>): Generator<string> {
  let header: readonly string[] | undefined;
  for (const reading of readings) {
    if (reading.names !== header && !sameNames(header, reading.names)) {
      header = reading.names;
      yield ["time", ...reading.names].map(csvField).join(",");
    }
    header = reading.names;
    const row = [formatFtdcTime(reading.timeNs)];
    for (const value of reading.values) row.push(formatFloat32(value));
    yield row.join(",");
  }
}

function sameNames(a: readonly string[] | undefined, b: readonly string[]): boolean {
  return a !== undefined && a.length === b.length && a.every((n, i) => n === b[i]);
}
