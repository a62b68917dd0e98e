// A message of the wire tables, ready to encode and decode: its fields in declaration order
// (the order protobuf-es gives a message's properties), in field-number order (the order it
// writes them), by number, and the names of its oneof groups.
import { parseMessageRow, type FieldSpec, type WireTables } from "./wire-tables.js";

export interface MessageSpec {
  readonly name: string;
  readonly fields: readonly FieldSpec[];
  readonly sorted: readonly FieldSpec[];
  readonly byNumber: ReadonlyMap<number, FieldSpec>;
  readonly oneofs: readonly string[];
}

export interface MessageSpecs {
  /** The spec of message `index`, parsed on first use. */
  spec(index: number): MessageSpec;
  /** The index of a message by its full name, or -1. */
  indexOf(name: string): number;
  readonly count: number;
}

/** The `index`th of the names separated by spaces, found in place: the text stays in flash. */
function nameAt(names: string, index: number): string | undefined {
  let start = 0;
  for (let i = 0; i < index; i++) {
    start = names.indexOf(" ", start) + 1;
    if (start === 0) return undefined;
  }
  const end = names.indexOf(" ", start);
  return names.slice(start, end < 0 ? names.length : end);
}

// The methods are thin: on a microcontroller each closure carries a copy of its code, so the
// work is in the module functions below, made once.
export function createMessageSpecs(tables: WireTables): MessageSpecs {
  const parsed: Array<MessageSpec | undefined> = [];
  let byName: Map<string, number> | undefined;
  return {
    spec: (index) => (parsed[index] ??= parseSpec(tables, index)),
    indexOf(name) {
      if (byName === undefined) byName = new Map(tables.names.split(" ").map((n, i) => [n, i]));
      return byName.get(name) ?? -1;
    },
    count: tables.messages.length,
  };
}

function parseSpec(tables: WireTables, index: number): MessageSpec {
  const row = tables.messages[index];
  if (row === undefined) throw new Error(`wire tables: no message ${index}`);
  const fields = parseMessageRow(row);
  const oneofs: string[] = [];
  for (const f of fields) if (f.oneof !== undefined && oneofs.indexOf(f.oneof) < 0) oneofs.push(f.oneof);
  return {
    name: nameAt(tables.names, index) ?? `#${index}`,
    fields,
    sorted: fields.slice().sort((a, b) => a.no - b.no),
    byNumber: new Map(fields.map((f) => [f.no, f])),
    oneofs,
  };
}
