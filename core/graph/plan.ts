// Planning a reconfiguration: compare the new configuration with what runs now, and decide what
// to close (dependents first) and what to build (by level). A resource is touched only when its
// entry changed, what its references resolve to changed, whether it can be built changed, or
// something it depends on is touched; everything else keeps running as it is.
import type { ResourceConfig } from "../config/index.js";
import { resourceConfigEqual } from "./config-equal.js";
import { buildDependencyGraph, sameDependencies, type DependencyGraph } from "./dependency-graph.js";
import type { GraphEntry, PlanRejection } from "./graph-entry.js";
import type { Hold } from "./resource-status.js";

/** What the planner needs to know about a resource that exists now. */
export interface PlannedNode {
  config: ResourceConfig;
  /** Has a live instance. */
  running: boolean;
  /** Its index in the previous plan's graph, and the hold that plan gave it. */
  index: number;
  hold: Hold | undefined;
  /** Full names of the dependencies its live instance was given. */
  builtWith: readonly string[];
  /** Full names of the live resources that were given this one. */
  usedBy: ReadonlySet<string>;
}

export interface HeldResource {
  name: string;
  state: "UNCONFIGURED" | "UNHEALTHY";
  error: string;
}

export interface ReconfigurePlan {
  added: string[];
  modified: string[];
  removed: string[];
  unchanged: string[];
  /** Groups to close in order; a group's members can close concurrently. Dependents come first. */
  close: string[][];
  /** Levels to build in order; a level's members can build concurrently. */
  build: string[][];
  /** Touched resources that cannot be built now, with the reason. */
  held: HeldResource[];
  /** Entries left out entirely (no usable name, or a duplicate). */
  rejected: PlanRejection[];
  /** Running resources whose changed entry was refused for a configuration error: they run on as before. */
  kept: KeptResource[];
}

export interface KeptResource {
  name: string;
  /** Where the refused entry sits, e.g. `components[2]`. */
  path: string;
  /** Why it was refused. */
  error: string;
}

export interface ComputedPlan {
  plan: ReconfigurePlan;
  graph: DependencyGraph;
}

export function sameHold(a: Hold | undefined, b: Hold | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.state === b.state && a.error === b.error;
}

export function computePlan(
  current: ReadonlyMap<string, PlannedNode>,
  previous: DependencyGraph | undefined,
  entries: GraphEntry[],
  rejected: PlanRejection[],
): ComputedPlan {
  const graph = buildDependencyGraph(entries);
  const n = entries.length;
  const touched = new Uint8Array(n);
  const plan: ReconfigurePlan = { added: [], modified: [], removed: [], unchanged: [], close: [], build: [], held: [], rejected, kept: [] };

  const queue: number[] = [];
  for (let i = 0; i < n; i++) {
    const e = entries[i]!;
    const now = current.get(e.name);
    if (now === undefined) {
      plan.added.push(e.name);
      touched[i] = 1;
    } else if (!e.unchanged && !resourceConfigEqual(now.config, e.config)) {
      plan.modified.push(e.name);
      touched[i] = 1;
    } else {
      plan.unchanged.push(e.name);
      const resolvedAlike = previous !== undefined && now.index >= 0 && sameDependencies(previous, now.index, graph, i);
      if (!resolvedAlike || !sameHold(now.hold, graph.hold[i])) touched[i] = 1;
    }
    if (touched[i]) queue.push(i);
  }
  // Everything depending on a touched resource is touched too (cycles included).
  propagate(graph, touched, queue);

  const closing: string[] = [];
  current.forEach((node, name) => {
    if (graph.index.has(name)) return;
    plan.removed.push(name);
    if (node.running) closing.push(name);
  });
  const touchedList: number[] = [];
  for (let i = 0; i < n; i++) if (touched[i]) touchedList.push(i);
  finishPlan(plan, current, graph, touchedList, closing);
  return { plan, graph };
}

/** Adds to `queue` (and marks) every dependent, direct or not, of the nodes already in it. */
export function propagate(graph: DependencyGraph, touched: Uint8Array, queue: number[]): void {
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head]!;
    for (let k = graph.dependentStart[v]!; k < graph.dependentStart[v + 1]!; k++) {
      const d = graph.dependentFrom[k]!;
      if (touched[d]) continue;
      touched[d] = 1;
      queue.push(d);
    }
  }
}

/** Fills in what to close, build and hold, given the touched nodes (ascending) and the removed names to close. */
export function finishPlan(plan: ReconfigurePlan, current: ReadonlyMap<string, PlannedNode>, graph: DependencyGraph, touched: number[], closing: string[]): void {
  for (const i of touched) {
    const name = graph.entries[i]!.name;
    if (current.get(name)?.running) closing.push(name);
  }
  plan.close = closeOrder(current, closing);
  const levels: string[][] = [];
  for (const i of touched) {
    const h = graph.hold[i];
    const name = graph.entries[i]!.name;
    if (h) {
      plan.held.push({ name, state: h.state, error: h.error });
      continue;
    }
    const lv = graph.level[i]!;
    while (levels.length <= lv) levels.push([]);
    levels[lv]!.push(name);
  }
  for (const level of levels) if (level.length > 0) plan.build.push(level);
}

/**
 * Groups `names` (and every live resource using one of them) so that each resource closes after
 * all the live resources that were built with it: Kahn's algorithm over the live references.
 */
export function closeOrder(current: ReadonlyMap<string, PlannedNode>, names: readonly string[]): string[][] {
  if (names.length === 0) return [];
  const all = new Set<string>();
  const queue = names.slice();
  for (let head = 0; head < queue.length; head++) {
    const name = queue[head]!;
    if (all.has(name)) continue;
    const node = current.get(name);
    if (!node || !node.running) continue;
    all.add(name);
    node.usedBy.forEach((user) => {
      if (!all.has(user)) queue.push(user);
    });
  }
  const waitingOn = new Map<string, number>();
  let group: string[] = [];
  all.forEach((name) => {
    let count = 0;
    current.get(name)!.usedBy.forEach((user) => {
      if (all.has(user)) count++;
    });
    waitingOn.set(name, count);
    if (count === 0) group.push(name);
  });
  const groups: string[][] = [];
  let placed = 0;
  while (group.length > 0) {
    groups.push(group);
    placed += group.length;
    const next: string[] = [];
    for (const name of group) {
      for (const dep of current.get(name)!.builtWith) {
        const count = waitingOn.get(dep);
        if (count === undefined) continue;
        waitingOn.set(dep, count - 1);
        if (count === 1) next.push(dep);
      }
    }
    group = next;
  }
  if (placed < all.size) {
    // Live references never form a cycle; should they, close the rest last rather than never.
    const rest: string[] = [];
    waitingOn.forEach((count, name) => {
      if (count > 0) rest.push(name);
    });
    groups.push(rest);
  }
  return groups;
}
