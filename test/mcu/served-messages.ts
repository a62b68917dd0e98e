// The protobuf-es descriptors of every message the MCU serves, by its index in the wire tables,
// reached from the services the table generator serves, and fast-check arbitraries of their
// init shapes (what handlers return), zero values and odd numbers (-0, NaN, 64-bit extremes,
// lone surrogates) included.
import type { DescField, DescMessage, DescService } from "@bufbuild/protobuf";
import { ScalarType } from "@bufbuild/protobuf";
import fc from "fast-check";
import { wireTables } from "../../targets/mcu/codec/index.js";
import { loadServedServices as loadFromGenerator } from "../../tools/gen/wire-tables.gen.mjs";

/** The served services' descriptors, loaded from proto/gen as the generator loads them. */
export async function loadServedServices(): Promise<Array<{ desc: DescService; methods?: string[] }>> {
  return (await loadFromGenerator()) as Array<{ desc: DescService; methods?: string[] }>;
}

/** Every message reachable from the services, by full name. */
export function reachableMessages(services: ReadonlyArray<{ desc: DescService }>): Map<string, DescMessage> {
  const found = new Map<string, DescMessage>();
  const visit = (m: DescMessage) => {
    if (found.has(m.typeName)) return;
    found.set(m.typeName, m);
    for (const f of m.fields) if (f.message) visit(f.message);
  };
  for (const { desc } of services) for (const method of desc.methods) {
    visit(method.input);
    visit(method.output);
  }
  return found;
}

/** The descriptor of each wire-table message, in table order. */
export function tableMessages(messages: ReadonlyMap<string, DescMessage>): DescMessage[] {
  return wireTables.names.split(" ").map((name) => {
    const desc = messages.get(name);
    if (!desc) throw new Error(`no descriptor for ${name}`);
    return desc;
  });
}

const int64Range = { min: -(BigInt(2) ** BigInt(63)), max: BigInt(2) ** BigInt(63) - BigInt(1) };
const uint64Range = { min: BigInt(0), max: BigInt(2) ** BigInt(64) - BigInt(1) };

function withZero<T>(zero: T, arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc.oneof({ weight: 1, arbitrary: fc.constant(zero) }, { weight: 3, arbitrary });
}

function scalar(type: ScalarType): fc.Arbitrary<unknown> {
  switch (type) {
    case ScalarType.DOUBLE:
      return withZero(0, fc.oneof(fc.double(), fc.constantFrom(-0, NaN, Infinity, -Infinity, 0.1, 1e300)));
    case ScalarType.FLOAT:
      return withZero(0, fc.float());
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return withZero(0, fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }));
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return withZero(0, fc.integer({ min: 0, max: 2 ** 32 - 1 }));
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return withZero(BigInt(0), fc.oneof(fc.bigInt(int64Range), fc.constantFrom(int64Range.min, int64Range.max, BigInt(-1))));
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return withZero(BigInt(0), fc.oneof(fc.bigInt(uint64Range), fc.constant(uint64Range.max)));
    case ScalarType.BOOL:
      return fc.boolean();
    case ScalarType.STRING:
      return withZero("", fc.oneof(fc.string({ unit: "binary", maxLength: 12 }), fc.string({ maxLength: 12 })));
    case ScalarType.BYTES:
      return fc.uint8Array({ maxLength: 8 });
  }
}

const json = fc.jsonValue({ maxDepth: 2 });
const jsonObject = fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 3, noNullPrototype: true });

function isStructJson(f: DescField): boolean {
  return f.message?.typeName === "google.protobuf.Struct" && f.parent.typeName !== "google.protobuf.Value";
}

function valueOf(f: DescField, kind: "scalar" | "enum" | "message", depth: number): fc.Arbitrary<unknown> {
  if (kind === "enum") return fc.oneof(fc.constantFrom(...f.enum!.values.map((v) => v.number)), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }));
  if (kind === "message") return isStructJson(f) ? jsonObject : initOf(f.message!, depth + 1);
  return scalar(f.scalar!);
}

/** Init shapes of `message`, nesting messages at most a few levels deep. */
export function initOf(message: DescMessage, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const deep = depth >= 3;
  const parts: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of message.fields) {
    if (f.oneof) continue;
    switch (f.fieldKind) {
      case "scalar":
      case "enum":
        parts[f.localName] = f.presence === 2 ? valueOf(f, f.fieldKind, depth) : fc.option(valueOf(f, f.fieldKind, depth), { nil: undefined });
        break;
      case "message":
        parts[f.localName] = deep ? fc.constant(undefined) : fc.option(valueOf(f, "message", depth), { nil: undefined });
        break;
      case "list":
        parts[f.localName] = deep && f.listKind === "message" ? fc.constant([]) : fc.array(valueOf(f, f.listKind, depth), { maxLength: 3 });
        break;
      case "map":
        parts[f.localName] =
          deep && f.mapKind === "message" ? fc.constant({}) : fc.dictionary(fc.string({ maxLength: 4 }), valueOf(f, f.mapKind, depth), { maxKeys: 3, noNullPrototype: true });
        break;
    }
  }
  for (const oneof of message.oneofs) {
    const cases = oneof.fields
      .filter((f) => !(deep && f.fieldKind === "message"))
      .map((f) => valueOf(f, f.fieldKind as "scalar" | "enum" | "message", depth).map((value) => ({ case: f.localName, value })));
    parts[oneof.localName] = fc.oneof(fc.constant({ case: undefined }), ...cases);
  }
  return fc.record(parts) as fc.Arbitrary<Record<string, unknown>>;
}

/** A protobuf-es message as a plain shape: no `$typeName` or `$unknown`, any depth. */
export function plainShape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainShape);
  if (value === null || typeof value !== "object" || value instanceof Uint8Array) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === "$typeName" || key === "$unknown") continue;
    Object.defineProperty(out, key, { value: plainShape((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
