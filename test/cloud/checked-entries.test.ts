// A machine's log entries are checked on the wire and kept as the bytes they came in. What passes
// always reads back as the entry that was sent; what does not is refused naming the entry and the
// field. The hostile half: bytes cut short, wrong wire types, groups, Structs nested past the
// bound, fields over their bounds, and any damage to a good entry, which is either refused or
// still reads back.
import { create, toBinary, toJson } from "@bufbuild/protobuf";
import { timestampFromMs, timestampMs } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LogEntrySchema } from "../../proto/gen/common/v1/common_pb.js";
import { checkedEntries, checkedEntry, MAX_ENTRY_BYTES } from "../../targets/cloud/api/checked-entries.js";
import { entryOf, LOG_LEVELS } from "../../targets/cloud/api/logs-entries.js";
import { MAX_STRUCT_DEPTH } from "../../targets/cloud/api/struct-wire.js";

const NOW = Date.UTC(2026, 10, 25);
type EntryInit = Parameters<typeof create<typeof LogEntrySchema>>[1];
const encode = (init: EntryInit) => toBinary(LogEntrySchema, create(LogEntrySchema, init));

/** A Struct `depth` deep: objects, with a list in between every third level when `lists`. */
function nested(depth: number, lists = false): Record<string, unknown> {
  let value: unknown = { leaf: "end" };
  for (let level = 2; level <= depth; level++) value = lists && level % 3 === 0 && level < depth ? [value] : { inner: value };
  return value as Record<string, unknown>;
}

describe("a log entry on the wire", () => {
  it("is kept as it came, with its level in lower case and its time, or now when it has none", () => {
    const bytes = encode({ host: "robot", level: "WARN", time: timestampFromMs(NOW - 5), loggerName: "rdk", message: "hot", caller: { File: "a.go" }, stack: "s", fields: [{ a: [1, "x", null, { b: false }] }] });
    const kept = checkedEntry(bytes, "logs[0]", NOW);
    expect(kept).toEqual({ time: NOW - 5, level: LOG_LEVELS.indexOf("warn"), bytes });
    expect(entryOf(kept)).toMatchObject({ host: "robot", level: "warn", message: "hot", caller: { File: "a.go" }, fields: [{ a: [1, "x", null, { b: false }] }] });
    expect(checkedEntry(encode({ level: "info", message: "no time" }), "logs[0]", NOW).time).toBe(NOW);
  });

  it("reads back a NaN or an infinity in a Struct as zap writes it, so that the entry's JSON form can say it", () => {
    const bytes = encode({ level: "info", caller: { load: Infinity }, fields: [{ x: NaN, list: [1, -Infinity, { deep: NaN }] }] });
    const entry = entryOf(checkedEntry(bytes, "logs[0]", NOW));
    expect(entry.caller).toEqual({ load: "+Inf" });
    expect(entry.fields).toEqual([{ x: "NaN", list: [1, "-Inf", { deep: "NaN" }] }]);
    expect(() => toJson(LogEntrySchema, entry)).not.toThrow();
  });

  it("keeps fields it does not know (a newer machine's), and reads back what it knows", () => {
    const known = encode({ level: "info", message: "m" });
    const withUnknown = new Uint8Array([...known, 0x48, 0x05, 0x52, 0x02, 0x68, 0x69]); // field 9 varint, field 10 bytes
    expect(entryOf(checkedEntry(withUnknown, "logs[0]", NOW)).message).toBe("m");
  });

  it("is refused, naming the entry and what is wrong, when it is malformed", () => {
    const good = encode({ level: "info", message: "hello" });
    const cases: [Uint8Array, RegExp][] = [
      [good.subarray(0, good.length - 2), /^logs\[3\]: not a well-formed LogEntry \(a field of 5 bytes runs past the message's end\)/],
      [new Uint8Array([0x28, 0x01, ...good]), /^logs\[3\]: not a well-formed LogEntry \(field 5 has wire type 0, not 2\)/],
      [new Uint8Array([0x4b, 0x4c, ...good]), /^logs\[3\]: not a well-formed LogEntry \(wire type 3 is not accepted\)/],
      [new Uint8Array([0x12, 0x04, 0x6c, 0x6f, 0x75, 0x64]), /^logs\[3\]\.level: "loud" is not a log level/],
      [encode({ message: "no level" }), /^logs\[3\]\.level: "" is not a log level/],
      [encode({ level: "info", time: { seconds: -5n, nanos: 0 } }), /^logs\[3\]\.time: out of range/],
      [encode({ level: "info", time: { seconds: 5n, nanos: 1_500_000_000 } }), /^logs\[3\]\.time: out of range/],
      [encode({ level: "info", time: { seconds: 253_402_300_800n, nanos: 0 } }), /^logs\[3\]\.time: out of range/],
      [new Uint8Array([0x12, 0x04, 0x69, 0x6e, 0x66, 0x6f, 0x1a, 0x02, 0x08, 0xff]), /^logs\[3\]\.time: not a well-formed google\.protobuf\.Timestamp \(cut short inside a varint\)/],
      [new Uint8Array([0x12, 0x04, 0x69, 0x6e, 0x66, 0x6f, 0x32, 0x02, 0x0a, 0x05]), /^logs\[3\]\.caller: not a well-formed google\.protobuf\.Struct/],
      [new Uint8Array([0x12, 0x04, 0x69, 0x6e, 0x66, 0x6f, 0x42, 0x02, 0x08, 0x01]), /^logs\[3\]\.fields: not a well-formed google\.protobuf\.Struct \(field 1 has wire type 0, not 2\)/],
      [encode({ level: "info", fields: [nested(MAX_STRUCT_DEPTH + 1) as never] }), new RegExp(`^logs\\[3\\]\\.fields: not a well-formed google\\.protobuf\\.Struct \\(nested more than ${MAX_STRUCT_DEPTH} deep\\)`)],
      [encode({ level: "info", fields: [nested(MAX_STRUCT_DEPTH + 1, true) as never] }), /nested more than 32 deep/],
      [new Uint8Array([0x12, 0x04, 0x69, 0x6e, 0x66, 0x6f, 0x42, 0x05, 0x0a, 0x03, 0x0a, 0x01, 0x78]), /^logs\[3\]\.fields: not a well-formed google\.protobuf\.Struct \(a key without a value\)/],
      [new Uint8Array([0x12, 0x04, 0x69, 0x6e, 0x66, 0x6f, 0x42, 0x07, 0x0a, 0x05, 0x0a, 0x01, 0x78, 0x12, 0x00]), /^logs\[3\]\.fields: not a well-formed google\.protobuf\.Struct \(a Value with no kind/],
      [encode({ level: "info", caller: { a: Array.from({ length: 400 }, () => false) }, fields: [{ b: Array.from({ length: 700 }, () => true) }] }), /^logs\[3\]\.fields: not a well-formed google\.protobuf\.Struct \(more than 1024 values\)/],
      [encode({ level: "info", message: "é".repeat(33 * 1024) }), /^logs\[3\]\.message: at most 65536 bytes \(got 67584\)/],
      [new Uint8Array([0x12, 0x04, 0x69, 0x6e, 0x66, 0x6f, 0x2a, 0x02, 0xc3, 0x28]), /^logs\[3\]\.message: not valid UTF-8/],
      [new Uint8Array([0x12, 0x04, 0x69, 0x6e, 0x66, 0x6f, 0x42, 0x08, 0x0a, 0x06, 0x0a, 0x01, 0xff, 0x12, 0x01, 0x00]), /^logs\[3\]\.fields: not a well-formed google\.protobuf\.Struct \(a string that is not valid UTF-8\)/],
      [encode({ level: "info", host: "h".repeat(257) }), /^logs\[3\]\.host: at most 256 bytes \(got 257\)/],
      [encode({ level: "info", caller: { big: "c".repeat(5000) } }), /^logs\[3\]\.caller: at most 4096 bytes/],
      [encode({ level: "info", fields: Array.from({ length: 3 }, () => ({ big: "f".repeat(30_000) })) }), /^logs\[3\]\.fields: at most 65536 bytes/],
      [new Uint8Array(MAX_ENTRY_BYTES + 1), new RegExp(`^logs\\[3\\]: at most ${MAX_ENTRY_BYTES} bytes an entry`)],
    ];
    for (const [bytes, message] of cases) {
      expect(() => checkedEntry(bytes, "logs[3]", NOW), message.source).toThrow(message);
      try {
        checkedEntry(bytes, "logs[3]", NOW);
      } catch (thrown) {
        expect((thrown as { code?: unknown }).code, message.source).toBe(3); // invalid_argument
      }
    }
    expect(() => checkedEntry(encode({ level: "info", fields: [nested(MAX_STRUCT_DEPTH, true) as never] }), "logs[3]", NOW)).not.toThrow();
  });

  it("refuses more than a call's worth of entries", () => {
    const one = encode({ level: "info" });
    expect(() => checkedEntries(Array.from({ length: 1001 }, () => one), NOW)).toThrow(/^logs: at most 1000 entries a call \(got 1001\)/);
  });

  it("reads back every entry it keeps, whatever was damaged in it", () => {
    const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: "small" }, fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), tie("object"), fc.array(tie("value"), { maxLength: 3 })),
      object: fc.dictionary(fc.string({ maxLength: 8 }), tie("value"), { maxKeys: 3 }),
    })).value;
    const entry = fc.record({
      host: fc.string({ maxLength: 20 }),
      level: fc.constantFrom(...LOG_LEVELS, "INFO", " Warn "),
      message: fc.string({ maxLength: 60 }),
      stack: fc.string({ maxLength: 20 }),
      time: fc.integer({ min: 0, max: 4_000_000_000_000 }),
      fields: fc.array(fc.dictionary(fc.string({ maxLength: 8 }), json, { maxKeys: 3 }), { maxLength: 3 }),
    });
    const damage = fc.array(fc.record({ at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(entry, damage, fc.boolean(), (init, hits, cut) => {
        const sent = create(LogEntrySchema, { ...init, time: timestampFromMs(init.time), fields: init.fields as never });
        const bytes = toBinary(LogEntrySchema, sent);
        const kept = checkedEntry(bytes, "logs[0]", NOW);
        const back = entryOf(kept);
        expect(back.message).toBe(init.message);
        expect(timestampMs(back.time!)).toBe(init.time);
        expect(back.fields).toEqual(sent.fields);

        const damaged = cut ? bytes.slice(0, hits[0]!.at % (bytes.length + 1)) : bytes.slice();
        if (!cut) for (const { at, byte } of hits) if (damaged.length > 0) damaged[at % damaged.length] = byte;
        let survivor;
        try {
          survivor = checkedEntry(damaged, "logs[0]", NOW);
        } catch (thrown) {
          expect((thrown as Error).message).toMatch(/^logs\[0\]/);
          return;
        }
        // What was let in decodes as an entry, without the stand-in for an unreadable one, and is
        // no larger encoded again than it came, but for the time and level it was stored under
        // (a page's byte budget counts what was stored).
        const back2 = entryOf(survivor);
        expect(back2.message).not.toMatch(/^\(svc-cloud could not read this entry/);
        expect(toBinary(LogEntrySchema, back2).length).toBeLessThanOrEqual(damaged.length + 24);
      }),
      { numRuns: 400 },
    );
  });

  it("holds a Struct nested as deep as allowed, which protobuf-es still decodes", () => {
    for (const lists of [false, true]) {
      const bytes = encode({ level: "info", fields: [nested(MAX_STRUCT_DEPTH, lists) as never] });
      expect(entryOf(checkedEntry(bytes, "logs[0]", NOW)).fields).toEqual([nested(MAX_STRUCT_DEPTH, lists)]);
    }
  });
});
