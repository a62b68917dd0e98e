// Reduces a message (protobuf-es v1 class or v2 descriptor) and every type it reaches to the
// facts that decide wire and JSON compatibility: field numbers, names, types and shapes, enum
// values. Two APIs are compatible when their shapes are equal.
import { ScalarType, type DescEnum, type DescField, type DescMessage } from "@bufbuild/protobuf";
import type { V1Enum, V1Field, V1MapValue, V1MessageType } from "./sdk-protos.js";

export interface FieldShape {
  number: number;
  name: string;
  jsonName: string;
  /** "repeated", "map", "optional" (proto3 explicit presence) or "single". */
  label: string;
  /** A scalar name ("double"), "enum <full name>" or "message <full name>"; maps: "map<key, value>". */
  type: string;
  oneof: string | undefined;
}

export type TypeShape =
  | { kind: "message"; fields: FieldShape[] }
  | { kind: "enum"; values: [number, string][] };

/** Every type reachable from the roots, by full name. */
export type ShapeMap = Map<string, TypeShape>;

function scalarName(type: number): string {
  const name = ScalarType[type];
  if (name === undefined) throw new Error(`unknown scalar type ${type}`);
  return name.toLowerCase();
}

function enumShape(values: readonly { no: number; name: string }[]): TypeShape {
  return { kind: "enum", values: values.map((v): [number, string] => [v.no, v.name]).sort((a, b) => a[0] - b[0]) };
}

/**
 * Fields the public Viam API (viamrobotics/api) has and the SDK these tests compare with predates,
 * by message: left out of our side's shapes, so the rest stays held to the SDK's field for field.
 * ResourceName's remote_path (5) and local_name (6) name a remote part's resources.
 */
const NEWER_THAN_THE_SDK: ReadonlyMap<string, readonly number[]> = new Map([["viam.common.v1.ResourceName", [5, 6]]]);

function byNumber(fields: FieldShape[]): FieldShape[] {
  return fields.sort((a, b) => a.number - b.number);
}

export function shapesOfV1(roots: readonly V1MessageType[]): ShapeMap {
  const shapes: ShapeMap = new Map();
  const typeOf = (kind: V1MapValue["kind"], T: V1MapValue["T"]): string => {
    if (kind === "scalar") return scalarName(T as number);
    if (kind === "enum") {
      const e = T as V1Enum;
      if (!shapes.has(e.typeName)) shapes.set(e.typeName, enumShape(e.values));
      return `enum ${e.typeName}`;
    }
    visit(T as V1MessageType);
    return `message ${(T as V1MessageType).typeName}`;
  };
  const fieldShape = (f: V1Field): FieldShape => {
    const type = f.kind === "map" ? `map<${scalarName(f.K!)}, ${typeOf(f.V!.kind, f.V!.T)}>` : typeOf(f.kind, f.T);
    const label = f.kind === "map" ? "map" : f.repeated ? "repeated" : f.opt ? "optional" : "single";
    return { number: f.no, name: f.name, jsonName: f.jsonName, label, type, oneof: f.oneof?.name };
  };
  function visit(type: V1MessageType) {
    if (shapes.has(type.typeName)) return;
    const shape: TypeShape = { kind: "message", fields: [] };
    shapes.set(type.typeName, shape);
    shape.fields = byNumber(type.fields.list().map(fieldShape));
  }
  roots.forEach(visit);
  return shapes;
}

export function shapesOfV2(roots: readonly DescMessage[]): ShapeMap {
  const shapes: ShapeMap = new Map();
  const enumType = (e: DescEnum) => {
    if (!shapes.has(e.typeName)) shapes.set(e.typeName, enumShape(e.values.map((v) => ({ no: v.number, name: v.name }))));
    return `enum ${e.typeName}`;
  };
  const messageType = (m: DescMessage) => {
    visit(m);
    return `message ${m.typeName}`;
  };
  const valueType = (f: DescField): string => {
    switch (f.fieldKind) {
      case "scalar":
        return scalarName(f.scalar);
      case "enum":
        return enumType(f.enum);
      case "message":
        return messageType(f.message);
      case "list":
        return f.listKind === "scalar" ? scalarName(f.scalar) : f.listKind === "enum" ? enumType(f.enum) : messageType(f.message);
      case "map": {
        const value = f.mapKind === "scalar" ? scalarName(f.scalar) : f.mapKind === "enum" ? enumType(f.enum) : messageType(f.message);
        return `map<${scalarName(f.mapKey)}, ${value}>`;
      }
    }
  };
  const fieldShape = (f: DescField): FieldShape => {
    const label =
      f.fieldKind === "map" ? "map" : f.fieldKind === "list" ? "repeated" : f.proto.proto3Optional ? "optional" : "single";
    return { number: f.number, name: f.name, jsonName: f.jsonName, label, type: valueType(f), oneof: f.oneof?.name };
  };
  function visit(message: DescMessage) {
    if (shapes.has(message.typeName)) return;
    const shape: TypeShape = { kind: "message", fields: [] };
    shapes.set(message.typeName, shape);
    const newer = NEWER_THAN_THE_SDK.get(message.typeName) ?? [];
    shape.fields = byNumber(message.fields.filter((f) => !newer.includes(f.number)).map(fieldShape));
  }
  roots.forEach(visit);
  return shapes;
}

/** Plain object form, sorted by name, for readable equality failures. */
export function shapeRecord(shapes: ShapeMap): Record<string, TypeShape> {
  return Object.fromEntries([...shapes].sort(([a], [b]) => a.localeCompare(b)));
}
