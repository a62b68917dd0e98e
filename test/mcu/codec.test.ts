// The MCU's compact codec against protobuf-es, the Node server's codec, for every message the
// MCU serves: random init shapes encode to exactly the bytes of toBinary(create(...)), and those
// bytes decode to exactly the shape fromBinary gives (less $typeName). Then the wire cases
// protobuf-es never writes: unpacked repeated scalars, unknown fields, a message field seen
// twice, and bytes that are not the message.
import { create, fromBinary, toBinary, type DescMessage } from "@bufbuild/protobuf";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { createWireCodec, methodRows, wireTables } from "../../targets/mcu/codec/index.js";
import { initOf, loadServedServices, plainShape, reachableMessages, tableMessages } from "./served-messages.js";

const codec = createWireCodec(wireTables);
let messages: DescMessage[] = [];

beforeAll(async () => {
  messages = tableMessages(reachableMessages(await loadServedServices()));
});

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

describe("the MCU codec, against protobuf-es", () => {
  it("covers every method's request and response", () => {
    expect(messages.length).toBe(wireTables.messages.length);
    for (const method of methodRows(wireTables)) {
      expect(messages[method.input]!.typeName).toMatch(/Request$/);
      expect(messages[method.output]!.typeName).toMatch(/Response$/);
    }
  });

  it("encodes every served message byte for byte as protobuf-es", () => {
    messages.forEach((desc, index) => {
      fc.assert(
        fc.property(initOf(desc), (init) => {
          expect(hex(codec.encode(index, init)), desc.typeName).toBe(hex(toBinary(desc, create(desc, init as never))));
        }),
        { numRuns: 60 },
      );
    });
  });

  it("decodes every served message to the shape protobuf-es gives", () => {
    messages.forEach((desc, index) => {
      fc.assert(
        fc.property(initOf(desc), (init) => {
          const bytes = toBinary(desc, create(desc, init as never));
          expect(codec.decode(index, bytes), desc.typeName).toEqual(plainShape(fromBinary(desc, bytes)));
        }),
        { numRuns: 60 },
      );
    });
  });

  const index = (name: string) => codec.indexOf(name);
  const find = (name: string) => messages[index(name)]!;

  it("reads repeated scalars packed or not, skips unknown fields, and merges a message field seen twice", () => {
    const jobs = find("viam.robot.v1.JobStatus");
    const timestamp = (seconds: number) => [0x08, seconds];
    // recent_successful_runs (2) twice, an unknown varint field 9, job_name (1).
    const bytes = new Uint8Array([0x12, 2, ...timestamp(5), 0x48, 0x7f, 0x12, 2, ...timestamp(6), 0x0a, 1, 0x6a]);
    expect(codec.decode(index(jobs.typeName), bytes)).toEqual(plainShape(fromBinary(jobs, bytes)));

    const status = find("viam.robot.v1.ResourceStatus");
    // name (1) in two parts: namespace, then name; protobuf merges them.
    const merged = new Uint8Array([0x0a, 5, 0x0a, 3, 0x72, 0x64, 0x6b, 0x0a, 3, 0x22, 1, 0x6d]);
    expect(codec.decode(index(status.typeName), merged)).toEqual(plainShape(fromBinary(status, merged)));
    expect(codec.decode(index(status.typeName), merged)).toMatchObject({ name: { namespace: "rdk", name: "m" } });
  });

  it("refuses bytes that are not the message, naming it", () => {
    const readings = index("viam.common.v1.GetReadingsRequest");
    expect(() => codec.decode(readings, new Uint8Array([0x0a, 5, 0x61]))).toThrow(/GetReadingsRequest: premature end/);
    expect(() => codec.decode(readings, new Uint8Array([0x0a, 2, 0xc3, 0x28]))).toThrow(/invalid UTF-8/);
    expect(() => codec.decode(readings, new Uint8Array([0x3f]))).toThrow(/field 7 has the unknown wire type 7/);
    expect(() => codec.decode(readings, new Uint8Array([0x08, 0x01]))).toThrow(/field 1 \(name\) has wire type 0, not 2/);
  });

  it("refuses a value its field cannot hold, as protobuf-es does", () => {
    const analog = index("viam.component.board.v1.ReadAnalogReaderResponse");
    expect(() => codec.encode(analog, { value: 1.5 })).toThrow(/ReadAnalogReaderResponse: invalid int32: 1.5/);
    expect(() => toBinary(find("viam.component.board.v1.ReadAnalogReaderResponse"), create(find("viam.component.board.v1.ReadAnalogReaderResponse"), { value: 1.5 }))).toThrow();
    expect(() => codec.encode(index("viam.component.board.v1.PWMFrequencyResponse"), { frequencyHz: BigInt(-1) })).toThrow(/invalid uint64/);
  });
});
