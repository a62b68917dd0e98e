// Planning without rebuilding the graph: when every entry keeps its name and its place, and each
// changed entry keeps its references and its problems, the graph is the same as before. Only the
// changed entries and their dependents are then visited, so changing one resource among thousands
// costs one comparison per entry and nothing more. Anything else falls back to a full plan.
import type { ResourceConfig } from "../config/index.js";
import { resourceConfigEqual } from "./config-equal.js";
import type { DependencyGraph } from "./dependency-graph.js";
import { createEntryMaker, isRejection, type GraphEntry, type PlanResourceInput } from "./graph-entry.js";
import { finishPlan, propagate, sameHold, type ComputedPlan, type PlannedNode, type ReconfigurePlan } from "./plan.js";

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The plan computePlan would give, reusing `previous` (updated in place with the new entries), or
 * undefined when the configuration's shape changed and a full plan is needed. `inputs[i]` is
 * undefined for an entry the caller found equal to the running one, validated as before.
 */
export function reusePlan(
  current: ReadonlyMap<string, PlannedNode>,
  previous: DependencyGraph,
  configs: readonly ResourceConfig[],
  paths: readonly string[],
  inputs: readonly (PlanResourceInput | undefined)[],
): ComputedPlan | undefined {
  const n = previous.entries.length;
  if (configs.length !== n || current.size !== n) return undefined;
  const make = createEntryMaker();
  const changed: GraphEntry[] = [];
  const changedAt: number[] = [];
  for (let i = 0; i < n; i++) {
    const config = configs[i]!;
    const old = previous.entries[i]!;
    if (config.name !== old.config.name || config.api !== old.config.api || paths[i] !== old.path) return undefined;
    const input = inputs[i];
    if (input === undefined) continue;
    const made = make(input, i);
    if (isRejection(made) || !sameList(old.requires, made.requires) || !sameList(old.optional, made.optional) || !sameHold(old.problem, made.problem)) {
      return undefined;
    }
    changed.push(made);
    changedAt.push(i);
  }

  const touched = new Uint8Array(n);
  const queue: number[] = [];
  for (let k = 0; k < changed.length; k++) {
    const i = changedAt[k]!;
    const now = current.get(previous.entries[i]!.name);
    if (now === undefined) return undefined;
    if (!resourceConfigEqual(now.config, changed[k]!.config)) {
      touched[i] = 1;
      queue.push(i);
    }
  }
  for (let i = 0; i < n; i++) previous.entries[i]!.config = configs[i]!;
  for (let k = 0; k < changed.length; k++) previous.entries[changedAt[k]!] = changed[k]!;

  const plan: ReconfigurePlan = { added: [], modified: [], removed: [], unchanged: [], close: [], build: [], held: [], rejected: [], kept: [] };
  for (let i = 0; i < n; i++) (touched[i] ? plan.modified : plan.unchanged).push(previous.entries[i]!.name);
  propagate(previous, touched, queue);
  finishPlan(plan, current, previous, queue.sort((a, b) => a - b), []);
  return { plan, graph: previous };
}
