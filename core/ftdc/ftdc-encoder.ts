// Turns a stream of flat readings (names, values) into FTDC bytes: a schema document whenever the
// names differ from the last ones written (and at the start of each file, after `restart`), then
// each reading diffed against the one before it.
import { encodeSchema } from "./ftdc-schema.js";
import { encodeReading } from "./ftdc-reading.js";

export interface FtdcEncoder {
  /** The bytes to append for this reading: a schema document first when the names changed. */
  encode(timeNs: bigint, names: readonly string[], values: ArrayLike<number>): Uint8Array;
  /** The next reading starts with a schema document (a new file starts). */
  restart(): void;
}

export function createFtdcEncoder(): FtdcEncoder {
  let names: readonly string[] | undefined;
  let prev: Float32Array | undefined;

  const sameNames = (next: readonly string[]) => names !== undefined && names.length === next.length && names.every((n, i) => n === next[i]);

  return {
    encode(timeNs, nextNames, values) {
      const curr = Float32Array.from(values as ArrayLike<number>);
      if (sameNames(nextNames)) {
        const reading = encodeReading(timeNs, prev, curr);
        prev = curr;
        return reading;
      }
      names = [...nextNames];
      const schema = encodeSchema(names);
      const reading = encodeReading(timeNs, undefined, curr);
      prev = curr;
      const out = new Uint8Array(schema.length + reading.length);
      out.set(schema, 0);
      out.set(reading, schema.length);
      return out;
    },
    restart() {
      names = undefined;
      prev = undefined;
    },
  };
}
