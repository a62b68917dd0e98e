// Builds SDK (protobuf-es v1) messages with every field set to a telling value: 64-bit numbers
// beyond 2^53, negative ints, non-zero enums, two-entry lists and maps, nested messages, and
// one oneof case chosen by `variant`, so a decoder that misreads any field shows it.
import { ScalarType } from "@bufbuild/protobuf";
import type { V1Enum, V1Field, V1MapValue, V1Message, V1MessageType } from "./sdk-protos.js";

const structJson = { speed: 1.5, label: "left", flags: [true, null], nested: { count: 3 } };

function wellKnown(type: V1MessageType): V1Message | undefined {
  switch (type.typeName) {
    case "google.protobuf.Struct":
      return type.fromJson(structJson);
    case "google.protobuf.Value":
      return type.fromJson({ reading: [21.5, "ok"] });
    case "google.protobuf.ListValue":
      return type.fromJson([1, "two", false]);
    case "google.protobuf.Duration":
      return type.fromJson("3.000500s");
    case "google.protobuf.Timestamp":
      return type.fromJson("2024-05-06T07:08:09.123Z");
    default:
      return undefined;
  }
}

function scalar(type: number, salt: number): unknown {
  switch (type) {
    case ScalarType.DOUBLE:
      return -1234.5678 - salt;
    case ScalarType.FLOAT:
      return 0.375 + salt;
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return -9007199254740993n - BigInt(salt);
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return 18446744073709551615n - BigInt(salt);
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return -2147483648 + salt;
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return 4294967295 - salt;
    case ScalarType.BOOL:
      return true;
    case ScalarType.STRING:
      return `text ${salt} ✓`;
    case ScalarType.BYTES:
      return new Uint8Array([0, 1, 254, 255, salt & 0xff]);
    default:
      throw new Error(`no sample for scalar type ${type}`);
  }
}

function lastEnumValue(e: V1Enum): number {
  return Math.max(...e.values.map((v) => v.no));
}

function value(kind: V1MapValue["kind"], T: V1MapValue["T"], salt: number, variant: number, depth: number): unknown {
  if (kind === "scalar") return scalar(T as number, salt);
  if (kind === "enum") return lastEnumValue(T as V1Enum);
  return sampleSdkMessage(T as V1MessageType, variant, depth + 1);
}

function fieldValue(f: V1Field, variant: number, depth: number): unknown {
  if (f.kind === "map") {
    const entry = (i: number): [unknown, unknown] => {
      const key = f.K === ScalarType.STRING ? `key${i}` : scalar(f.K!, i);
      return [String(key), value(f.V!.kind, f.V!.T, f.no + i, variant, depth)];
    };
    return Object.fromEntries([entry(1), entry(2)]);
  }
  const one = (i: number) => value(f.kind as V1MapValue["kind"], f.T, f.no + i, variant, depth);
  return f.repeated ? [one(1), one(2)] : one(0);
}

/** How many variants reach every oneof case of the message and the messages inside it (at least 1). */
export function oneofVariants(type: V1MessageType, seen = new Set<string>()): number {
  if (seen.has(type.typeName) || type.typeName.startsWith("google.protobuf.")) return 1;
  seen.add(type.typeName);
  const counts = new Map<string, number>();
  let nested = 1;
  for (const f of type.fields.list()) {
    if (f.oneof) counts.set(f.oneof.name, (counts.get(f.oneof.name) ?? 0) + 1);
    const inner = f.kind === "message" ? f.T : f.kind === "map" && f.V!.kind === "message" ? f.V!.T : undefined;
    if (inner) nested = Math.max(nested, oneofVariants(inner as V1MessageType, seen));
  }
  return Math.max(nested, ...counts.values());
}

export function sampleSdkMessage(type: V1MessageType, variant = 0, depth = 0): V1Message {
  const known = wellKnown(type);
  if (known) return known;
  const message = new type() as unknown as Record<string, unknown>;
  if (depth > 4) return message as unknown as V1Message;
  const oneofCases = new Map<string, V1Field[]>();
  for (const f of type.fields.list()) {
    if (f.oneof) {
      oneofCases.set(f.oneof.localName, [...(oneofCases.get(f.oneof.localName) ?? []), f]);
      continue;
    }
    message[f.localName] = fieldValue(f, variant, depth);
  }
  for (const [localName, cases] of oneofCases) {
    const chosen = cases[variant % cases.length]!;
    message[localName] = { case: chosen.localName, value: fieldValue(chosen, variant, depth) };
  }
  return message as unknown as V1Message;
}
