// The planner as a pure function of JSON: the configuration running now (`from`, taken as fully
// built where it can be) and the new one (`to`) in, the plan out. It runs the very code the engine
// runs, and is what tests compare between Node and XS.
import { toGraphEntries, type PlanResourceInput } from "./graph-entry.js";
import { computePlan, type ComputedPlan, type PlannedNode, type ReconfigurePlan } from "./plan.js";

export interface PlanRequest {
  from?: PlanResourceInput[];
  to: PlanResourceInput[];
}

export function planReconfigure(request: PlanRequest): ReconfigurePlan {
  const before = toGraphEntries(request.from ?? []);
  const first = computePlan(new Map(), undefined, before.entries, before.rejected);
  const after = toGraphEntries(request.to);
  return computePlan(builtState(first), first.graph, after.entries, after.rejected).plan;
}

/** The state after carrying out `computed` with every build succeeding. */
export function builtState(computed: ComputedPlan): Map<string, PlannedNode> {
  const g = computed.graph;
  const nodes = new Map<string, PlannedNode & { builtWith: string[]; usedBy: Set<string> }>();
  for (let i = 0; i < g.entries.length; i++) {
    const e = g.entries[i]!;
    nodes.set(e.name, { config: e.config, running: false, index: i, hold: g.hold[i], builtWith: [], usedBy: new Set() });
  }
  for (const level of computed.plan.build) {
    for (const name of level) {
      const node = nodes.get(name)!;
      node.running = true;
      const i = g.index.get(name)!;
      for (let j = g.edgeStart[i]!; j < g.edgeStart[i + 1]!; j++) {
        const depName = g.entries[g.edgeTo[j]!]!.name;
        const dep = nodes.get(depName)!;
        if (!dep.running) continue;
        node.builtWith.push(depName);
        dep.usedBy.add(name);
      }
    }
  }
  return nodes;
}
