// Reads FTDC bytes one reading at a time, holding only the schema in force and the previous
// values. What rdk's reader checks is checked here, with the byte offset in every error: the
// data starts with a schema document; a schema is a JSON array of strings ending in a newline;
// a reading is whole; its time neither goes backwards nor jumps more than a day ahead. A schema
// longer than `maxSchemaBytes` or with more than `maxMetrics` names is refused before it is
// parsed, so a hostile file cannot make the reader hold more than that.
import { Code, errorMessage, SvcError } from "../errors/index.js";
import { SCHEMA_BYTE } from "./ftdc-schema.js";
import { diffByteCount } from "./ftdc-reading.js";
import { utf8Decode } from "./utf8.js";

export interface FtdcReading {
  /** Nanoseconds since the epoch. */
  timeNs: bigint;
  /** The schema in force: the same array for every reading under one schema document. */
  names: readonly string[];
  values: Float32Array;
  /** Where the reading starts in the bytes. */
  offset: number;
}

export interface FtdcReadOptions {
  /** Default 1 MiB. */
  maxSchemaBytes?: number;
  /** Default 100,000. */
  maxMetrics?: number;
  /** Named in errors: a file's path. */
  source?: string;
}

const NS_IN_A_DAY = 86_400_000_000_000n;

/** Every reading of `bytes`, in order; throws a SvcError (DataLoss) naming the byte offset at the first fault. */
export function* readFtdc(bytes: Uint8Array, options: FtdcReadOptions = {}): Generator<FtdcReading> {
  const maxSchemaBytes = options.maxSchemaBytes ?? 1 << 20;
  const maxMetrics = options.maxMetrics ?? 100_000;
  const fault = (offset: number, message: string) =>
    new SvcError(Code.DataLoss, `${options.source ? `${options.source}: ` : ""}byte ${offset}: ${message}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let names: readonly string[] | undefined;
  let prev: Float32Array | undefined;
  let lastTime: bigint | undefined;
  let at = 0;
  while (at < bytes.length) {
    const first = bytes[at]!;
    if (first === SCHEMA_BYTE) {
      const read = readSchema(bytes, at, maxSchemaBytes, maxMetrics, fault);
      names = read.names;
      prev = undefined;
      at = read.end;
      continue;
    }
    if (names === undefined) throw fault(at, `FTDC data starts with a schema document (0x01), not 0x${hex(first)}`);
    if ((first & 1) === 1) throw fault(at, `0x${hex(first)} sets the schema bit but is not a schema document (0x01)`);
    const start = at;
    const diffBytes = diffByteCount(names.length);
    const changed = changedIndexes(bytes, at, names.length, diffBytes, fault);
    const size = diffBytes + 8 + 4 * changed.length;
    if (at + size > bytes.length) throw fault(start, `a reading of ${size} bytes is cut short: ${bytes.length - at} left`);
    at += diffBytes;
    const timeNs = view.getBigInt64(at, false);
    if (lastTime !== undefined && timeNs < lastTime) throw fault(at, `the time goes backwards (${timeNs} ns after ${lastTime} ns)`);
    if (lastTime !== undefined && timeNs > lastTime + NS_IN_A_DAY) throw fault(at, `the time jumps more than a day ahead (${timeNs} ns after ${lastTime} ns)`);
    lastTime = timeNs;
    at += 8;
    const values = prev ? prev.slice() : new Float32Array(names.length);
    for (const index of changed) {
      values[index] = view.getFloat32(at, false);
      at += 4;
    }
    prev = values;
    yield { timeNs, names, values, offset: start };
  }
}

function changedIndexes(bytes: Uint8Array, at: number, count: number, diffBytes: number, fault: (offset: number, message: string) => SvcError): number[] {
  if (at + diffBytes > bytes.length) throw fault(at, `a reading's ${diffBytes} diff byte(s) are cut short: ${bytes.length - at} left`);
  const changed: number[] = [];
  for (let bit = 1; bit < diffBytes * 8; bit++) {
    if ((bytes[at + (bit >> 3)]! & (1 << (bit & 7))) === 0) continue;
    if (bit > count) throw fault(at + (bit >> 3), `diff bit ${bit} is set but the schema has only ${count} metric(s)`);
    changed.push(bit - 1);
  }
  return changed;
}

function readSchema(bytes: Uint8Array, at: number, maxBytes: number, maxMetrics: number, fault: (offset: number, message: string) => SvcError) {
  const limit = Math.min(bytes.length, at + 1 + maxBytes);
  let end = at + 1;
  while (end < limit && bytes[end] !== 0x0a) end++;
  if (end >= limit) {
    throw end >= bytes.length
      ? fault(at, "a schema document is cut short: no newline ends it")
      : fault(at, `a schema document runs past ${maxBytes} bytes without its newline`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8Decode(bytes.subarray(at + 1, end)));
  } catch (e) {
    throw fault(at + 1, `a schema document is not JSON: ${errorMessage(e)}`);
  }
  if (!Array.isArray(parsed) || !parsed.every((n) => typeof n === "string")) throw fault(at + 1, "a schema document is not a JSON array of metric names");
  if (parsed.length > maxMetrics) throw fault(at + 1, `a schema of ${parsed.length} metrics is more than ${maxMetrics}`);
  return { names: parsed as string[], end: end + 1 };
}

function hex(byte: number): string {
  return byte.toString(16).padStart(2, "0");
}
