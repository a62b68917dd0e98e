// The MCU's protobuf codec: encodes the handlers' init shapes and decodes requests to the shapes
// they expect, for the messages of the generated wire tables, byte for byte as protobuf-es does.
// One writer is kept and reused, so encoding allocates little more than its result.
import { errorMessage } from "../../../core/index.js";
import { readFields, zeroMessage } from "./decode-message.js";
import { writeMessage } from "./encode-message.js";
import { messageJson } from "./message-json.js";
import { createMessageSpecs, type MessageSpecs } from "./message-spec.js";
import { createWireReader } from "./wire-reader.js";
import { serviceMethods, type MethodRow, type WireTables } from "./wire-tables.js";
import { createWireWriter, type WireWriter } from "./wire-writer.js";

export interface WireCodec {
  /** The bytes of message `index` made from an init shape. Throws on a value its field cannot hold. */
  encode(index: number, init: object): Uint8Array;
  /** Message `index` read from `bytes`. Throws on bytes that are not that message. */
  decode(index: number, bytes: Uint8Array): Record<string, unknown>;
  /** A decoded message as JSON (see message-json.ts), for listing requests. */
  toJson(index: number, shape: Record<string, unknown>): Record<string, unknown>;
  /** A message's index by its full name ("viam.common.v1.GetReadingsRequest"), or -1. */
  indexOf(name: string): number;
  /** A message's full name by its index. */
  nameOf(index: number): string;
  /** The method a path names ("/viam.component.sensor.v1.SensorService/GetReadings"), or undefined. */
  method(path: string): MethodRow | undefined;
  /** Whether the tables hold a service of this full name. */
  hasService(name: string): boolean;
}

/** What the codec keeps: the tables, the specs read from them, one writer, and the services met. */
interface CodecState {
  readonly tables: WireTables;
  readonly specs: MessageSpecs;
  readonly writer: WireWriter;
  // A service's methods are read from its row when one of them is first called (only services
  // in the tables are remembered, so unknown names cannot grow the map).
  readonly services: Map<string, Map<string, MethodRow>>;
}

// The methods are thin: on a microcontroller each closure carries a copy of its code, so the
// work is in the module functions below, made once.
export function createWireCodec(tables: WireTables): WireCodec {
  const state: CodecState = { tables, specs: createMessageSpecs(tables), writer: createWireWriter(), services: new Map() };
  const { specs } = state;
  return {
    encode: (index, init) => encode(state, index, init),
    decode: (index, bytes) => decode(specs, index, bytes),
    toJson: (index, shape) => messageJson(specs, index, shape),
    indexOf: (name) => specs.indexOf(name),
    nameOf: (index) => specs.spec(index).name,
    method: (path) => method(state, path),
    hasService: (name) => tables.services.some(([service]) => service === name),
  };
}

function methodsOf(state: CodecState, service: string): Map<string, MethodRow> | undefined {
  const known = state.services.get(service);
  if (known !== undefined) return known;
  const row = state.tables.services.find(([name]) => name === service);
  if (row === undefined) return undefined;
  const methods = new Map(serviceMethods(row).map((m) => [m.path, m]));
  state.services.set(service, methods);
  return methods;
}

function encode(state: CodecState, index: number, init: object): Uint8Array {
  const { writer, specs } = state;
  try {
    writeMessage(writer, specs, index, init as Record<string, unknown>);
  } catch (thrown) {
    writer.finish();
    throw new Error(`cannot encode ${specs.spec(index).name}: ${errorMessage(thrown)}`);
  }
  return writer.finish();
}

function decode(specs: MessageSpecs, index: number, bytes: Uint8Array): Record<string, unknown> {
  const spec = specs.spec(index);
  try {
    return readFields(createWireReader(bytes), specs, index, bytes.length, zeroMessage(spec));
  } catch (thrown) {
    throw new Error(`cannot decode ${spec.name}: ${errorMessage(thrown)}`);
  }
}

function method(state: CodecState, path: string): MethodRow | undefined {
  const slash = path.indexOf("/", 1);
  return slash < 0 ? undefined : methodsOf(state, path.slice(1, slash))?.get(path);
}
