// The shape of the generated wire tables (gen/wire-tables.ts) and how one message's row is read.
// Rows stay strings until a message is first encoded or decoded: a device keeps the text in
// flash and spends heap only on the messages it actually meets.

export interface WireTables {
  /** Full protobuf names of the messages, by index, separated by spaces. */
  readonly names: string;
  /** One row per message: its fields in declaration order (see tools/gen/wire-tables.gen.mjs). */
  readonly messages: readonly string[];
  /** [service full name, "Method,localName,inputIndex,outputIndex|..."] for each service served. */
  readonly services: ReadonlyArray<readonly [string, string]>;
}

/** Value types: protobuf's scalar type numbers, then enum, message and Struct-as-JSON. */
export const T = {
  double: 1,
  float: 2,
  int64: 3,
  uint64: 4,
  int32: 5,
  fixed64: 6,
  fixed32: 7,
  bool: 8,
  string: 9,
  bytes: 12,
  uint32: 13,
  sfixed32: 15,
  sfixed64: 16,
  sint32: 17,
  sint64: 18,
  enum: 20,
  message: 21,
  json: 22,
} as const;

/** How a field holds its values. */
export const SINGULAR = 0;
export const LIST = 1;
export const PACKED = 2;
export const MAP = 3;

export interface FieldSpec {
  readonly no: number;
  /** The property the field has in protobuf-es's shapes (its localName). */
  readonly name: string;
  readonly type: number;
  /** The message index of a message value, otherwise -1. */
  readonly message: number;
  readonly shape: number;
  /** A proto3 `optional` scalar: written whenever set, absent (undefined) when not. */
  readonly explicit: boolean;
  /** The oneof group the field belongs to. */
  readonly oneof: string | undefined;
}

const letters: Record<string, number> = {
  d: T.double,
  f: T.float,
  I: T.int64,
  U: T.uint64,
  i: T.int32,
  X: T.fixed64,
  x: T.fixed32,
  b: T.bool,
  t: T.string,
  B: T.bytes,
  u: T.uint32,
  y: T.sfixed32,
  Y: T.sfixed64,
  s: T.sint32,
  S: T.sint64,
  e: T.enum,
  j: T.json,
};

function valueType(text: string, row: string): { type: number; message: number } {
  if (text.charAt(0) === "m") return { type: T.message, message: Number(text.slice(1)) };
  const type = letters[text];
  if (type === undefined) throw new Error(`wire tables: unknown type "${text}" in "${row}"`);
  return { type, message: -1 };
}

/** The fields of one message row, in declaration order. */
export function parseMessageRow(row: string): FieldSpec[] {
  if (row === "") return [];
  return row.split("|").map((field) => {
    const [no, name, typeText, oneof] = field.split(",") as [string, string, string, string?];
    let shape = SINGULAR;
    let explicit = false;
    let text = typeText;
    const first = text.charAt(0);
    if (first === "*" || first === "+" || first === "?") {
      text = text.slice(1);
      if (first === "*") shape = LIST;
      else if (first === "+") shape = PACKED;
      else explicit = true;
    } else if (text.charAt(1) === ":") {
      // Maps are keyed by strings only (the generator refuses others).
      shape = MAP;
      text = text.slice(2);
    }
    const { type, message } = valueType(text, row);
    return { no: Number(no), name, type, message, shape, explicit, oneof };
  });
}

export interface MethodRow {
  /** "/viam.component.sensor.v1.SensorService/GetReadings" */
  readonly path: string;
  readonly service: string;
  /** The handler's name: the method's localName ("getReadings", "pWM"). */
  readonly localName: string;
  readonly input: number;
  readonly output: number;
}

/** The methods of one service row. */
export function serviceMethods([service, text]: readonly [string, string]): MethodRow[] {
  if (text === "") return [];
  return text.split("|").map((method) => {
    const [name, localName, input, output] = method.split(",") as [string, string, string, string];
    return { path: `/${service}/${name}`, service, localName, input: Number(input), output: Number(output) };
  });
}

/** Every method of the tables' services. */
export function methodRows(tables: WireTables): MethodRow[] {
  const rows: MethodRow[] = [];
  for (const service of tables.services) rows.push(...serviceMethods(service));
  return rows;
}
