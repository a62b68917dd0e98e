// The dependency graph of one configuration: each entry's references resolved (by full name, or by
// simple name when exactly one resource carries it), cycles found, resources that cannot be built
// held back with the reason, and a level for every other one (0 for no dependencies, otherwise
// one more than its deepest dependency). Everything is linear in resources plus references, and
// edges live in flat arrays (one allocation for all of them, not one per resource). Resources
// joined from other parts (joined-names.ts) are found by their qualified names (`pi:left`), and by
// their simple names where no configured resource has the same one.
import { isFullNameReference, isRemoteName, parseResourceName, simpleNameProblem } from "../resource/index.js";
import { indexJoinedNames, joinedMatches, type JoinedNames } from "./joined-names.js";
import type { GraphEntry } from "./graph-entry.js";
import type { Hold } from "./resource-status.js";
import { cycleThrough, stronglyConnected, type Components } from "./strongly-connected.js";

export interface DependencyGraph {
  entries: GraphEntry[];
  index: Map<string, number>;
  /** Dependencies of node i: `edgeTo[edgeStart[i] .. edgeStart[i + 1])`, no duplicates. */
  edgeStart: Int32Array;
  edgeTo: Int32Array;
  /** 1 when the dependency at that position is required. */
  edgeRequired: Uint8Array;
  /** The reference as the configuration wrote it, at that position. */
  edgeWritten: string[];
  /** Dependents of node i: `dependentFrom[dependentStart[i] .. dependentStart[i + 1])`. */
  dependentStart: Int32Array;
  dependentFrom: Int32Array;
  /** Why a node cannot be built, if it cannot. */
  hold: (Hold | undefined)[];
  /** Level of each buildable node; -1 for a held one. */
  level: Int32Array;
  /** Nodes in dependency order (dependencies first). */
  order: Int32Array;
}

function stateOf(hold: Hold): string {
  return hold.root ? `${hold.state}: ${hold.error}` : hold.state;
}

export function waitingFor(dependency: string, state: string): string {
  return `waiting for dependency ${dependency} (${state})`;
}

export function buildDependencyGraph(entries: GraphEntry[]): DependencyGraph {
  const n = entries.length;
  const names = indexNames(entries);
  const { edgeStart, edgeTo, edgeRequired, edgeWritten, inDegree, hold } = resolveReferences(entries, names);
  const { dependentStart, dependentFrom } = reverseEdges(edgeStart, edgeTo, inDegree);
  const { order, component, size } = stronglyConnected(edgeStart, edgeTo);
  holdCycles(entries, hold, edgeStart, edgeTo, { order, component, size });
  const level = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const v = order[k]!;
    if (hold[v]) {
      level[v] = -1;
      continue;
    }
    let lv = 0;
    let waiting: Hold | undefined;
    for (let j = edgeStart[v]!; j < edgeStart[v + 1]!; j++) {
      const t = edgeTo[j]!;
      const h = hold[t];
      if (h) {
        // A held optional dependency is simply left out; a held required one holds this node too.
        if (edgeRequired[j] && !waiting) waiting = { state: "UNCONFIGURED", error: waitingFor(entries[t]!.name, stateOf(h)), root: false };
        continue;
      }
      if (level[t]! + 1 > lv) lv = level[t]! + 1;
    }
    if (waiting) hold[v] = waiting;
    level[v] = waiting ? -1 : lv;
  }
  return { entries, index: names.index, edgeStart, edgeTo, edgeRequired, edgeWritten, dependentStart, dependentFrom, hold, level, order };
}

interface NameIndex {
  index: Map<string, number>;
  /** Simple names of configured resources. */
  bySimple: Map<string, number>;
  /** Simple names several configured resources carry, with their positions. */
  ambiguous: Map<string, number[]> | undefined;
  /** The names of joined resources, when there are any. */
  joined: JoinedNames | undefined;
  /** References written in all entries together. */
  refTotal: number;
}

function indexNames(entries: GraphEntry[]): NameIndex {
  const index = new Map<string, number>();
  const bySimple = new Map<string, number>();
  let ambiguous: Map<string, number[]> | undefined;
  let anyJoined = false;
  let refTotal = 0;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    index.set(e.name, i);
    refTotal += e.requires.length + e.optional.length;
    if (e.joined) {
      anyJoined = true;
      continue;
    }
    const seen = bySimple.get(e.simple);
    if (seen === undefined) bySimple.set(e.simple, i);
    else {
      ambiguous ??= new Map();
      const list = ambiguous.get(e.simple);
      if (list) list.push(i);
      else ambiguous.set(e.simple, [seen, i]);
    }
  }
  const joined = anyJoined ? indexJoinedNames(entries, index, bySimple) : undefined;
  return { index, bySimple, ambiguous, joined, refTotal };
}

// Every reference resolved to an edge (duplicates merged, required winning), and each entry
// whose references are broken, ambiguous or missing held back with the reason.
function resolveReferences(entries: GraphEntry[], names: NameIndex) {
  const n = entries.length;
  const { index, bySimple, ambiguous, joined, refTotal } = names;
  const edgeStart = new Int32Array(n + 1);
  let edgeTo = new Int32Array(refTotal);
  let edgeRequired = new Uint8Array(refTotal);
  const edgeWritten: string[] = [];
  const inDegree = new Int32Array(n);
  const hold: (Hold | undefined)[] = [];
  // Stamp of the node that last referenced each target, so duplicates cost O(1) to drop.
  const stamp = new Int32Array(n).fill(-1);
  const slot = new Int32Array(n);
  let m = 0;

  for (let i = 0; i < n; i++) {
    const e = entries[i]!;
    edgeStart[i] = m;
    let broken: string | undefined;
    let missing: string | undefined;
    let missingCount = 0;
    let missingRemote = false;
    const refCount = e.requires.length + e.optional.length;
    for (let r = 0; r < refCount; r++) {
      const isRequired = r < e.requires.length;
      const ref = isRequired ? e.requires[r]! : e.optional[r - e.requires.length]!;
      let target = -1;
      if (isFullNameReference(ref)) {
        const found = index.get(ref);
        const alias = found === undefined && joined ? joinedMatches(joined, ref) : undefined;
        if (found !== undefined) target = found;
        else if (alias?.length === 1) target = alias[0]!;
        else if (alias) broken = append(broken, ambiguity(ref, alias, entries));
        else {
          const parsed = parseResourceName(ref);
          if (!parsed.ok) broken = append(broken, `dependency ${parsed.error}`);
          else if (isRequired) {
            missing = append(missing, ref);
            missingCount++;
            missingRemote ||= isRemoteName(parsed.value.name);
          }
        }
      } else {
        const several = ambiguous?.get(ref);
        const local = several ? undefined : bySimple.get(ref);
        const others = local === undefined && !several && joined ? joinedMatches(joined, ref) : undefined;
        const found = local ?? (others?.length === 1 ? others[0] : undefined);
        if (found !== undefined) target = found;
        else if (several || others) broken = append(broken, ambiguity(ref, (several ?? others)!, entries));
        else {
          const problem = simpleNameProblem(ref);
          if (problem !== undefined) broken = append(broken, `dependency ${problem}`);
          else if (isRequired) {
            missing = append(missing, `"${ref}"`);
            missingCount++;
            missingRemote ||= isRemoteName(ref);
          }
        }
      }
      if (target < 0) continue;
      if (stamp[target] === i) {
        if (isRequired) edgeRequired[slot[target]!] = 1;
        continue;
      }
      stamp[target] = i;
      slot[target] = m;
      edgeTo[m] = target;
      edgeRequired[m] = isRequired ? 1 : 0;
      edgeWritten.push(ref);
      inDegree[target]!++;
      m++;
    }
    hold.push(referenceHold(e, broken, missing, missingCount, missingRemote));
  }
  edgeStart[n] = m;
  if (m < refTotal) {
    edgeTo = edgeTo.subarray(0, m);
    edgeRequired = edgeRequired.subarray(0, m);
  }
  return { edgeStart, edgeTo, edgeRequired, edgeWritten, inDegree, hold };
}

function referenceHold(e: GraphEntry, broken: string | undefined, missing: string | undefined, missingCount: number, remote: boolean): Hold | undefined {
  if (e.problem !== undefined) return e.problem;
  if (broken !== undefined) return { state: "UNHEALTHY", error: broken, root: true };
  if (missing === undefined) return undefined;
  const what = missingCount > 1 ? "dependencies" : "dependency";
  const where = remote ? "no such resource is configured or listed by a remote" : "no such resource is configured";
  return { state: "UNCONFIGURED", error: `missing ${what} ${missing}: ${where}`, root: true };
}

function ambiguity(ref: string, candidates: readonly number[], entries: GraphEntry[]): string {
  const names = candidates.map((j) => entries[j]!.name).join(" and ");
  return `dependency "${ref}" is ambiguous: ${names} both match; write the full name`;
}

/** Dependents of each node, from the dependencies; `inDegree` is used up as the fill cursor. */
function reverseEdges(edgeStart: Int32Array, edgeTo: Int32Array, inDegree: Int32Array) {
  const n = inDegree.length;
  const dependentStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) dependentStart[i + 1] = dependentStart[i]! + inDegree[i]!;
  const dependentFrom = new Int32Array(edgeTo.length);
  const fill = inDegree;
  fill.set(dependentStart.subarray(0, n));
  for (let i = 0; i < n; i++) {
    for (let k = edgeStart[i]!; k < edgeStart[i + 1]!; k++) dependentFrom[fill[edgeTo[k]!]!++] = i;
  }
  return { dependentStart, dependentFrom };
}

/** Holds every member of a cycle (a component of several, or a self-reference), naming the cycle. */
function holdCycles(
  entries: GraphEntry[],
  hold: (Hold | undefined)[],
  edgeStart: Int32Array,
  edgeTo: Int32Array,
  { order, component, size }: Components,
): void {
  const n = entries.length;
  const parent = new Int32Array(n).fill(-1);
  let cycleError: Map<number, string> | undefined;
  for (let k = 0; k < n; k++) {
    const v = order[k]!;
    const c = component[v]!;
    if (size[c] === 1 && !hasEdge(edgeStart, edgeTo, v, v)) continue;
    cycleError ??= new Map();
    let error = cycleError.get(c);
    if (error === undefined) {
      // Members of a component sit together in `order`; start the cycle at the first configured.
      let first = v;
      for (let j = k; j < k + size[c]!; j++) if (order[j]! < first) first = order[j]!;
      error = `dependency cycle: ${cycleThrough(first, edgeStart, edgeTo, component, parent).map((j) => entries[j]!.name).join(" -> ")}`;
      cycleError.set(c, error);
    }
    if (!entries[v]!.problem) hold[v] = { state: "UNHEALTHY", error, root: true };
  }
}

function hasEdge(edgeStart: Int32Array, edgeTo: Int32Array, from: number, to: number): boolean {
  for (let j = edgeStart[from]!; j < edgeStart[from + 1]!; j++) if (edgeTo[j] === to) return true;
  return false;
}

function append(list: string | undefined, item: string): string {
  return list === undefined ? item : `${list}, ${item}`;
}

/** True when node `a` of graph `ga` and node `b` of graph `gb` depend on the same resources, the same way. */
export function sameDependencies(ga: DependencyGraph, a: number, gb: DependencyGraph, b: number): boolean {
  const a0 = ga.edgeStart[a]!;
  const b0 = gb.edgeStart[b]!;
  const count = ga.edgeStart[a + 1]! - a0;
  if (count !== gb.edgeStart[b + 1]! - b0) return false;
  let k = 0;
  while (k < count && ga.edgeRequired[a0 + k] === gb.edgeRequired[b0 + k] && ga.entries[ga.edgeTo[a0 + k]!]!.name === gb.entries[gb.edgeTo[b0 + k]!]!.name) k++;
  if (k === count) return true;
  // Same references in another order (depends_on reordered) still mean the same dependencies.
  const before = new Map<string, number>();
  for (let j = k; j < count; j++) before.set(ga.entries[ga.edgeTo[a0 + j]!]!.name, ga.edgeRequired[a0 + j]!);
  for (let j = k; j < count; j++) if (before.get(gb.entries[gb.edgeTo[b0 + j]!]!.name) !== gb.edgeRequired[b0 + j]) return false;
  return true;
}
