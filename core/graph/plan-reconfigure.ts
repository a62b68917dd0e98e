// The planner as a pure function of JSON: the configuration running now (`from`, taken as fully
// built where it can be) and the new one (`to`) in, the plan out. It runs the very code the engine
// runs (running resources kept when their new entry has a configuration error included), and is
// what tests compare between Node and XS.
import { createEntryMaker, isRejection, toGraphEntries, type PlanResourceInput } from "./graph-entry.js";
import { planKeepingRunning, runningEntryInput } from "./keep-running.js";
import { computePlan, type ComputedPlan, type PlannedNode, type ReconfigurePlan } from "./plan.js";

export interface PlanRequest {
  from?: PlanResourceInput[];
  to: PlanResourceInput[];
}

export function planReconfigure(request: PlanRequest): ReconfigurePlan {
  const from = request.from ?? [];
  const before = toGraphEntries(from);
  const first = computePlan(new Map(), undefined, before.entries, before.rejected);
  const state = builtState(first);
  const fromByName = new Map<string, PlanResourceInput>();
  const make = createEntryMaker();
  from.forEach((input, i) => {
    const made = make(input, i);
    if (!isRejection(made) && !fromByName.has(made.name)) fromByName.set(made.name, input);
  });
  const running = (name: string, path: string) => {
    const previous = fromByName.get(name);
    return previous && runningEntryInput(previous, path);
  };
  return planKeepingRunning(request.to, state, running, (inputs) => {
    const after = toGraphEntries(inputs);
    return computePlan(state, first.graph, after.entries, after.rejected);
  }).plan;
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
