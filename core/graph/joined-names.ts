// How a reference finds a resource joined from another part of the machine (a remote's, named
// `pi:left`): by its qualified name, with or without its API; or by its simple name (`left`, or
// `rdk:component:motor/left`) where no configured resource has that name, since a configured
// resource always wins its own name. A reference several joined resources match is ambiguous,
// and says so. Built once per graph, only when something is joined.
import { isFullNameReference, isRemoteName } from "../resource/index.js";
import type { GraphEntry } from "./graph-entry.js";

export interface JoinedNames {
  /** Qualified names (`pi:left`): several when resources of different APIs share one. */
  byName: Map<string, number[]>;
  /** Simple names no configured resource has. */
  bySimple: Map<string, number[]>;
  /** `api/simple` for full names written with the simple name, where no configured resource has it. */
  byFull: Map<string, number[]>;
}

/** `index` holds every entry's full name, `configured` the simple names of configured entries. */
export function indexJoinedNames(entries: readonly GraphEntry[], index: ReadonlyMap<string, number>, configured: ReadonlyMap<string, number>): JoinedNames {
  const names: JoinedNames = { byName: new Map(), bySimple: new Map(), byFull: new Map() };
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (!e.joined) continue;
    add(names.byName, e.config.name, i);
    if (!configured.has(e.simple)) add(names.bySimple, e.simple, i);
    const full = `${e.config.api}/${e.simple}`;
    if (full !== e.name && !index.has(full)) add(names.byFull, full, i);
  }
  return names;
}

/** The joined resources `ref` matches (one, or several when it is ambiguous), or undefined for none. */
export function joinedMatches(names: JoinedNames, ref: string): readonly number[] | undefined {
  if (isFullNameReference(ref)) return names.byFull.get(ref);
  return isRemoteName(ref) ? names.byName.get(ref) : names.bySimple.get(ref);
}

/**
 * Where each name the engine is asked for leads: a simple name to one resource (null when several
 * carry it), a full name written with a joined resource's simple name to that resource.
 */
export function nameLookups(entries: readonly GraphEntry[]): { simple: Map<string, string | null>; aliases: Map<string, string | null> } {
  const simple = new Map<string, string | null>();
  const fullNames = new Set<string>();
  for (const e of entries) {
    fullNames.add(e.name);
    if (!e.joined) simple.set(e.simple, simple.has(e.simple) ? null : e.name);
  }
  const joinedSimple = new Map<string, string | null>();
  const aliases = new Map<string, string | null>();
  for (const e of entries) {
    if (!e.joined) continue;
    if (!simple.has(e.simple)) joinedSimple.set(e.simple, joinedSimple.has(e.simple) ? null : e.name);
    const full = `${e.config.api}/${e.simple}`;
    if (!fullNames.has(full)) aliases.set(full, aliases.has(full) ? null : e.name);
  }
  joinedSimple.forEach((name, key) => simple.set(key, name));
  return { simple, aliases };
}

function add(map: Map<string, number[]>, key: string, at: number): void {
  const list = map.get(key);
  if (list) list.push(at);
  else map.set(key, [at]);
}
