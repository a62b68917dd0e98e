// Viam's FTDC format byte for byte: golden bytes worked out by hand from the format (rdk's
// ftdc/custom_format.go), read back to the values they hold and written by the encoder exactly.
import { describe, expect, it } from "vitest";
import { createFtdcEncoder, encodeSchema, flattenMetrics, readFtdc, SvcError, Code } from "../../../core/index.js";

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

// Three metrics, three readings one second apart.
const golden = Uint8Array.from([
  // Schema document: 0x01, the names as a JSON array, the newline Go's json.Encoder appends.
  0x01, ...ascii('["a.x","a.y","b.z"]'), 0x0a,
  // Reading 1 at 1 s: [1, 0, 2] against zeros. a.x (bit 1) and b.z (bit 3) changed: 0b0000_1010.
  0x0a,
  0x00, 0x00, 0x00, 0x00, 0x3b, 0x9a, 0xca, 0x00, // 1,000,000,000 ns, int64 big-endian
  0x3f, 0x80, 0x00, 0x00, // a.x = 1.0, float32 big-endian
  0x40, 0x00, 0x00, 0x00, // b.z = 2.0
  // Reading 2 at 2 s: [1, 0.5, 2]. Only a.y (bit 2) changed: 0b0000_0100.
  0x04,
  0x00, 0x00, 0x00, 0x00, 0x77, 0x35, 0x94, 0x00, // 2,000,000,000 ns
  0x3f, 0x00, 0x00, 0x00, // a.y = 0.5
  // Reading 3 at 3 s: [-1, 0.5, 2.5]. a.x and b.z changed again: 0b0000_1010.
  0x0a,
  0x00, 0x00, 0x00, 0x00, 0xb2, 0xd0, 0x5e, 0x00, // 3,000,000,000 ns
  0xbf, 0x80, 0x00, 0x00, // a.x = -1.0
  0x40, 0x20, 0x00, 0x00, // b.z = 2.5
]);

const goldenReadings = [
  { timeNs: 1_000_000_000n, values: [1, 0, 2] },
  { timeNs: 2_000_000_000n, values: [1, 0.5, 2] },
  { timeNs: 3_000_000_000n, values: [-1, 0.5, 2.5] },
];

function errorOf(fn: () => unknown): SvcError {
  try {
    fn();
  } catch (e) {
    return e as SvcError;
  }
  throw new Error("no error");
}
const readAll = (bytes: Uint8Array) => [...readFtdc(bytes)];

describe("the FTDC format", () => {
  it("reads hand-made golden bytes to the values they hold", () => {
    const readings = readAll(golden);
    expect(readings.map((r) => ({ timeNs: r.timeNs, values: [...r.values] }))).toEqual(goldenReadings);
    expect(readings.map((r) => r.names)).toEqual([["a.x", "a.y", "b.z"], ["a.x", "a.y", "b.z"], ["a.x", "a.y", "b.z"]]);
    expect(readings.map((r) => r.offset)).toEqual([21, 38, 51]);
  });

  it("writes the same golden bytes from the same readings", () => {
    const encoder = createFtdcEncoder();
    const chunks = goldenReadings.map((r) => encoder.encode(r.timeNs, ["a.x", "a.y", "b.z"], r.values));
    expect(Buffer.concat(chunks)).toEqual(Buffer.from(golden));
  });

  it("puts metric 8 in the second diff byte, after the schema bit", () => {
    const names = ["m.0", "m.1", "m.2", "m.3", "m.4", "m.5", "m.6", "m.7"];
    const encoder = createFtdcEncoder();
    const first = encoder.encode(0n, names, [0, 0, 0, 0, 0, 0, 0, 0]);
    expect([...first.subarray(encodeSchema(names).length)]).toEqual([0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]);
    const second = encoder.encode(1n, names, [0, 0, 0, 0, 0, 0, 0, 3]);
    // Metric index 7 is bit 8: byte 1, bit 0.
    expect([...second]).toEqual([0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 1, 0x40, 0x40, 0x00, 0x00]);
    expect(readAll(Buffer.concat([first, second])).map((r) => r.values[7])).toEqual([0, 3]);
  });

  it("writes a new schema when the names change, and diffs against zeros after it", () => {
    const encoder = createFtdcEncoder();
    const chunks = [encoder.encode(1n, ["a.x"], [5]), encoder.encode(2n, ["a.x"], [5]), encoder.encode(3n, ["a.x", "m.new"], [5, 0])];
    const bytes = Buffer.concat(chunks);
    const readings = readAll(bytes);
    expect(readings.map((r) => [r.names, [...r.values]])).toEqual([
      [["a.x"], [5]],
      [["a.x"], [5]],
      [["a.x", "m.new"], [5, 0]],
    ]);
    // The second reading repeats 5 and carries no value: diff byte, time, nothing else.
    expect(chunks[1]!.length).toBe(1 + 8);
    expect(Buffer.from(chunks[2]!.subarray(0, 17)).toString()).toBe('\u0001["a.x","m.new"]\n');
  });

  it("escapes names as Go's json.Encoder does", () => {
    expect(Buffer.from(encodeSchema(["a.<b>&\u2028\"q\""])).toString("utf8")).toBe('\u0001["a.\\u003cb\\u003e\\u0026\\u2028\\"q\\""]\n');
    expect(readAll(Buffer.concat([encodeSchema(["a.<b>&é"]), Buffer.from([0x00, 0, 0, 0, 0, 0, 0, 0, 0])]))[0]!.names).toEqual(["a.<b>&é"]);
  });

  it("flattens nested metrics with dots, keys sorted at every level", () => {
    expect(flattenMetrics({ z: 1, a: { y: true, b: 2, c: { d: 3 }, skip: undefined } })).toEqual({ names: ["a.b", "a.c.d", "a.y", "z"], values: [2, 3, 1, 1] });
  });
});

describe("reading bad FTDC bytes", () => {
  it("says the data must start with a schema document", () => {
    const e = errorOf(() => readAll(Uint8Array.from([0x42, 1, 2, 3])));
    expect(e).toBeInstanceOf(SvcError);
    expect(e.code).toBe(Code.DataLoss);
    expect(e.message).toBe("byte 0: FTDC data starts with a schema document (0x01), not 0x42");
  });

  it("refuses a schema that claims more than the limit, before holding it", () => {
    const huge = Buffer.concat([Buffer.from([0x01]), Buffer.from("["), Buffer.alloc(4 << 20, 0x41)]);
    expect(errorOf(() => readAll(huge)).message).toBe(`byte 0: a schema document runs past ${1 << 20} bytes without its newline`);
    const many = Buffer.concat([encodeSchema(Array.from({ length: 20 }, (_, i) => `m.${i}`))]);
    expect(errorOf(() => [...readFtdc(many, { maxMetrics: 10 })]).message).toBe("byte 1: a schema of 20 metrics is more than 10");
  });

  it("names a schema that is not JSON, not an array of names, or cut short", () => {
    expect(errorOf(() => readAll(Buffer.from("\u0001[\"a.x\",\n"))).message).toMatch(/^byte 1: a schema document is not JSON: /);
    expect(errorOf(() => readAll(Buffer.from("\u0001[1,2]\n"))).message).toBe("byte 1: a schema document is not a JSON array of metric names");
    expect(errorOf(() => readAll(Buffer.from("\u0001[\"a.x\""))).message).toBe("byte 0: a schema document is cut short: no newline ends it");
  });

  it("yields the readings before a truncated one, then names where it is cut", () => {
    const cut = golden.subarray(0, golden.length - 3);
    const seen: number[] = [];
    const e = errorOf(() => {
      for (const r of readFtdc(cut, { source: "x.ftdc" })) seen.push(r.values[0]!);
    });
    expect(seen).toEqual([1, 1]);
    expect(e.message).toBe("x.ftdc: byte 51: a reading of 17 bytes is cut short: 14 left");
  });

  it("refuses time going backwards or jumping more than a day ahead", () => {
    const encoder = createFtdcEncoder();
    const back = Buffer.concat([encoder.encode(5_000n, ["a.x"], [1]), encoder.encode(4_000n, ["a.x"], [2])]);
    expect(errorOf(() => readAll(back)).message).toBe("byte 23: the time goes backwards (4000 ns after 5000 ns)");
    const day = 86_400_000_000_000n;
    const fresh = createFtdcEncoder();
    const ahead = Buffer.concat([fresh.encode(1n, ["a.x"], [1]), fresh.encode(2n + day, ["a.x"], [2])]);
    expect(errorOf(() => readAll(ahead)).message).toBe(`byte 23: the time jumps more than a day ahead (${2n + day} ns after 1 ns)`);
  });

  it("refuses diff bits for metrics the schema does not have, and a stray schema bit", () => {
    const schema = encodeSchema(["a.x"]);
    expect(errorOf(() => readAll(Buffer.concat([schema, Buffer.from([0x04, 0, 0, 0, 0, 0, 0, 0, 0])]))).message).toBe(
      `byte ${schema.length}: diff bit 2 is set but the schema has only 1 metric(s)`,
    );
    expect(errorOf(() => readAll(Buffer.concat([schema, Buffer.from([0x03])]))).message).toBe(
      `byte ${schema.length}: 0x03 sets the schema bit but is not a schema document (0x01)`,
    );
  });

  it("turns random garbage into an error or readings, never a crash of another kind", () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    for (let round = 0; round < 200; round++) {
      const bytes = Uint8Array.from({ length: 1 + Math.floor(random() * 200) }, () => Math.floor(random() * 256));
      if (round % 2 === 0) bytes.set(encodeSchema(["a.x", "a.y"]).subarray(0, Math.min(bytes.length, 17)));
      try {
        readAll(bytes);
      } catch (e) {
        expect(e).toBeInstanceOf(SvcError);
        expect((e as SvcError).message).toMatch(/^byte \d+: /);
      }
    }
  });
});
