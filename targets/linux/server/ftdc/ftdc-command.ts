// `svc-server ftdc FILE... [-charts DIR]`: the readings of FTDC files as CSV on stdout (a header
// row, `time` then the metric names, again wherever the names change), and with -charts an SVG
// chart per metric in DIR with an index.html showing them all. A file that cannot be read is
// named with the byte where it goes wrong; the readings before that are still printed.
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { errorMessage, escapeXml, SvcError, ftdcCsvLines, ftdcSeries, readFtdc, renderSvgChart, type FtdcReading } from "../../../../core/index.js";
import { formatHelp, parseFlags, UsageError, type FlagSpec } from "../../cli/flags.js";

const flags: readonly FlagSpec[] = [
  { name: "charts", kind: "string", arg: "<dir>", help: "Also write an SVG chart per metric, and an index.html of them, into this folder" },
  { name: "help", kind: "bool", aliases: ["h"], help: "Show this help" },
];
const usage = "Usage: svc-server ftdc FILE... [-charts DIR]\n\nPrints the readings of FTDC files as CSV: a header row (time, then the metric names) wherever the names change, then a row per reading.";

export interface CommandIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** svc-server's files end past 10 MB by one reading; a file far larger is not one of them. */
const MAX_FILE_BYTES = 256 * 1024 * 1024;
const MAX_CHARTS = 2000;

const processIo: CommandIo = { out: (t) => void process.stdout.write(t), err: (t) => void process.stderr.write(t) };

export function runFtdcCommand(argv: readonly string[], io: CommandIo = processIo): number {
  let parsed;
  try {
    parsed = parseFlags(flags, argv);
    if (!parsed.values.help && parsed.positional.length === 0) throw new UsageError("name at least one FTDC file");
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.err(`svc-server ftdc: ${e.message}\n\n${formatHelp(usage, flags)}`);
    return 2;
  }
  if (parsed.values.help) {
    io.out(formatHelp(usage, flags));
    return 0;
  }
  const charts = typeof parsed.values.charts === "string" ? parsed.values.charts : undefined;
  const kept: FtdcReading[] = [];
  let failed = false;
  for (const file of parsed.positional) {
    const problem = printFile(file, io, charts ? kept : undefined);
    if (problem === undefined) continue;
    failed = true;
    io.err(`svc-server ftdc: ${problem}\n`);
  }
  if (charts) {
    try {
      const count = writeCharts(charts, kept);
      io.err(`svc-server ftdc: wrote ${count} chart(s) to ${charts}\n`);
    } catch (e) {
      io.err(`svc-server ftdc: -charts ${charts}: ${errorMessage(e)}\n`);
      return 1;
    }
  }
  return failed ? 1 : 0;
}

/**
 * Prints one file's readings as CSV as they are read (a few hundred lines at a time), keeping them
 * in `kept` for charts; returns what went wrong, if anything.
 */
function printFile(file: string, io: CommandIo, kept: FtdcReading[] | undefined): string | undefined {
  let batch: string[] = [];
  const flush = () => {
    if (batch.length > 0) io.out(`${batch.join("\n")}\n`);
    batch = [];
  };
  try {
    const size = statSync(file).size;
    if (size > MAX_FILE_BYTES) return `${file}: ${size} bytes is more than an FTDC file holds (${MAX_FILE_BYTES} at most read)`;
    const readings = readFtdc(readFileSync(file), { source: file });
    for (const line of ftdcCsvLines(kept ? keeping(readings, kept) : readings)) {
      batch.push(line);
      if (batch.length >= 500) flush();
    }
    return undefined;
  } catch (e) {
    // The reader's errors name the file and the byte; the file system's are said to be about the file.
    return e instanceof SvcError ? errorMessage(e) : `${file}: cannot be read: ${errorMessage(e)}`;
  } finally {
    flush();
  }
}

function* keeping(readings: Iterable<FtdcReading>, kept: FtdcReading[]): Generator<FtdcReading> {
  for (const reading of readings) {
    kept.push(reading);
    yield reading;
  }
}

function writeCharts(dir: string, readings: FtdcReading[]): number {
  const series = ftdcSeries(readings);
  if (series.length > MAX_CHARTS) throw new Error(`${series.length} metrics are more than ${MAX_CHARTS} charts`);
  mkdirSync(dir, { recursive: true });
  const images: string[] = [];
  series.forEach((one, index) => {
    const file = `${String(index).padStart(3, "0")}-${one.name.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 100)}.svg`;
    writeFileSync(join(dir, file), renderSvgChart(one));
    images.push(`<figure><img src="${escapeXml(encodeURIComponent(file))}" alt="${escapeXml(one.name)}"><figcaption>${escapeXml(one.name)}</figcaption></figure>`);
  });
  const page = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8"><title>FTDC charts</title></head><body>', `<h1>FTDC charts</h1>`, ...images, "</body></html>", ""];
  writeFileSync(join(dir, "index.html"), page.join("\n"));
  return series.length;
}
