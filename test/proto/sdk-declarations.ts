// Reads the SDK's type declarations (protobuf-es v1 and connect-es output, generated from the
// reference protos) for the services it ships no runtime definition of: every message's fields
// and every service's methods, as the generator's "@generated from" lines state them.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { DescMessage, DescService } from "@bufbuild/protobuf";
import { expect } from "vitest";
import { shapesOfV2, type TypeShape } from "./wire-shape.js";

/** A field as a declaration states it: `repeated string tags = 3`, `map<string, x.Y> m = 1`. */
export interface DeclaredField {
  number: number;
  name: string;
  /** "repeated", "optional", "map" or "single". */
  label: string;
  /** A scalar name or a full type name (messages and enums alike); maps: "map<key, value>". */
  type: string;
}

const sdkRoot = dirname(createRequire(import.meta.url).resolve("@viamrobotics/sdk"));

/** The text of a declaration file under the SDK's dist/gen, e.g. "app/agent/v1/agent_pb.d.ts". */
export function sdkDeclarations(file: string): string {
  return readFileSync(join(sdkRoot, "gen", file), "utf8");
}

const fieldLine = /@generated from field: (?:(repeated|optional) )?(map<[^>]+>|\S+) (\w+) = (\d+)(?: \[[^\]]*\])?;/;

/** Every message of a *_pb.d.ts, by full name, with its fields in declaration order. */
export function declaredMessages(text: string): Map<string, DeclaredField[]> {
  const messages = new Map<string, DeclaredField[]>();
  let current: DeclaredField[] | undefined;
  for (const line of text.split("\n")) {
    const message = /@generated from message (\S+)/.exec(line);
    if (message) messages.set(message[1]!, (current = []));
    if (/@generated from enum /.test(line)) current = undefined;
    const field = fieldLine.exec(line);
    if (field && current) {
      const [, label, type, name, number] = field;
      const shape = type!.startsWith("map<") ? "map" : (label ?? "single");
      current.push({ number: Number(number), name: name!, label: shape, type: type! });
    }
  }
  return messages;
}

/** Every method of a *_connect.d.ts service: [name, kind] with kind as protobuf-es v2 names it. */
export function declaredMethods(text: string, typeName: string): [string, string][] {
  const start = text.indexOf(`readonly typeName: "${typeName}"`);
  if (start < 0) throw new Error(`${typeName} is not declared`);
  const end = text.indexOf("\n};", start);
  const body = text.slice(start, end < 0 ? undefined : end);
  const kinds: Record<string, string> = {
    Unary: "unary",
    ServerStreaming: "server_streaming",
    ClientStreaming: "client_streaming",
    BiDiStreaming: "bidi_streaming",
  };
  return [...body.matchAll(/readonly name: "(\w+)",[\s\S]*?readonly kind: MethodKind\.(\w+),/g)].map(
    ([, name, kind]): [string, string] => [name!, kinds[kind!]!],
  );
}

/** Our messages (and every message they reach) in the declarations' form, by full name. */
export function ourDeclaredForm(roots: readonly DescMessage[]): Map<string, DeclaredField[]> {
  const plain = (type: string) => type.replace(/\b(message|enum) /g, "");
  const messages = new Map<string, DeclaredField[]>();
  for (const [typeName, shape] of shapesOfV2(roots)) {
    if (shape.kind !== "message" || typeName.startsWith("google.protobuf.")) continue;
    const fields = (shape as Extract<TypeShape, { kind: "message" }>).fields;
    messages.set(
      typeName,
      fields.map((f) => ({ number: f.number, name: f.name, label: f.label, type: plain(f.type) })),
    );
  }
  return messages;
}

export function requestsAndResponses(service: DescService): DescMessage[] {
  return service.methods.flatMap((m) => [m.input, m.output]);
}

/** Our messages reached from the roots equal the SDK's declarations of the same names. */
export function expectAsDeclared(roots: readonly DescMessage[], declarationFiles: readonly string[]): void {
  const declared = new Map(declarationFiles.flatMap((file) => [...declaredMessages(sdkDeclarations(file))]));
  const ours = ourDeclaredForm(roots);
  expect(ours.size).toBeGreaterThan(0);
  for (const [typeName, fields] of ours) {
    expect(declared.has(typeName), `${typeName} is declared by the SDK`).toBe(true);
    const theirs = [...declared.get(typeName)!].sort((a, b) => a.number - b.number);
    expect(fields, typeName).toEqual(theirs);
  }
}
