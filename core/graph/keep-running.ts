// A running resource is never torn down for a mistake in its new entry. When an edit gives it an
// entry its model refuses, or references that make a dependency cycle or cannot be told apart,
// the resource keeps running on the entry it was built from, the new entry is refused with its
// reason, and the rest of the configuration applies. A new resource with the same mistake has
// nothing to keep and is held back (UNHEALTHY) as before; an entry that only waits (for a model a
// module may bring, for a dependency yet to be configured) is applied and waits.
import { resourceConfigEqual } from "./config-equal.js";
import type { PlanResourceInput } from "./graph-entry.js";
import type { ComputedPlan, KeptResource, PlannedNode } from "./plan.js";

/**
 * Plans `inputs`; then, while a running resource would be held UNHEALTHY by its changed entry,
 * plans again with that entry replaced by the running one. `runningInput` gives the running
 * entry as an input at `path`, or undefined when that entry cannot stand either. Each round
 * keeps at least one more resource, so there are at most as many rounds as resources, and in
 * practice one.
 */
export function planKeepingRunning(
  inputs: PlanResourceInput[],
  current: ReadonlyMap<string, PlannedNode>,
  runningInput: (name: string, path: string) => PlanResourceInput | undefined,
  plan: (inputs: PlanResourceInput[]) => ComputedPlan,
): ComputedPlan {
  let computed = plan(inputs);
  const kept: KeptResource[] = [];
  const keptNames = new Set<string>();
  let list = inputs;
  let positions: Map<unknown, number> | undefined;
  for (;;) {
    const graph = computed.graph;
    let replaced = false;
    for (let i = 0; i < graph.entries.length; i++) {
      const hold = graph.hold[i];
      if (!hold || !hold.root || hold.state !== "UNHEALTHY") continue;
      const entry = graph.entries[i]!;
      const node = current.get(entry.name);
      if (!node?.running || keptNames.has(entry.name) || resourceConfigEqual(node.config, entry.config)) continue;
      const previous = runningInput(entry.name, entry.path);
      if (!previous) continue;
      if (!positions) {
        list = inputs.slice();
        positions = new Map(list.map((input, at) => [input.config, at]));
      }
      const at = positions.get(entry.config);
      if (at === undefined) continue;
      list[at] = previous;
      kept.push({ name: entry.name, path: entry.path, error: hold.error });
      keptNames.add(entry.name);
      replaced = true;
    }
    if (!replaced) break;
    computed = plan(list);
  }
  computed.plan.kept = kept;
  return computed;
}

/** The input of a running entry, placed at `path`; undefined when its own validation has errors. */
export function runningEntryInput(previous: PlanResourceInput, path: string): PlanResourceInput | undefined {
  if (previous.modelKnown === false || previous.issues?.some((issue) => issue.severity === "error")) return undefined;
  return { ...previous, path, unchanged: true };
}
