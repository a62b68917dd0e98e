// The apply phase: a configuration becomes a plan (reusing the last one's validations while the
// registry is unchanged, planning afresh otherwise), and the plan is carried out: what changed
// is closed (dependents first) or handed to its model to reconfigure in place, what was removed
// is forgotten, the nodes are brought in line with the new graph, what is held back says why, and
// what must run is built level by level. A re-plan (the registry changed) carries the same
// configuration out again without announcing it as applied.
import type { ApplyResult, GraphConfig } from "./engine-types.js";
import { buildLevels } from "./build-levels.js";
import { closeGroups } from "./close-resources.js";
import { createEngineNode, type EngineNode } from "./engine-node.js";
import { setStatus, type EngineState } from "./engine-state.js";
import { toGraphEntries, type PlanResourceInput } from "./graph-entry.js";
import { inPlaceCandidates } from "./in-place.js";
import { nameLookups } from "./joined-names.js";
import { planKeepingRunning } from "./keep-running.js";
import { computePlan, type ReconfigurePlan } from "./plan.js";
import { reusePlan } from "./plan-reuse.js";

export async function applyConfig(state: EngineState, config: GraphConfig, rev: string, replan: boolean): Promise<ApplyResult> {
  const { registry, nodes, preparer, logger } = state;
  // Validations are remembered under the registry as it was when they ran: a model that comes
  // while this apply awaits must not be hidden behind a result from before it came.
  const validatedWith = registry.generation;
  const prepared = preparer.prepare(config, state.joined, nodes, state.graph, state.nodeAt);
  // Validations found unchanged stay valid only while the registry is as it was at the last plan.
  const reused =
    replan || registry.generation !== state.plannedWith ? undefined : reusePlan(nodes, state.graph, prepared.configs, prepared.paths, prepared.inputs);
  state.plannedWith = registry.generation;
  const { plan, graph: next } = reused ?? fullPlan(state, preparer.allInputs(prepared));
  if (!replan) for (const r of plan.rejected) logger.error(`${r.path}: ${r.error}`);
  state.problems.kept(nodes, plan.kept);
  state.current = config;

  const inPlace = inPlaceCandidates(plan.modified, nodes, next, registry);
  await closeGroups(state, inPlace.size ? plan.close.map((g) => g.filter((n) => !inPlace.has(n))).filter((g) => g.length > 0) : plan.close);
  for (const name of inPlace) state.reconfigureInPlace.add(nodes.get(name)!);
  for (const name of plan.removed) {
    state.retries.cancel(nodes.get(name)!);
    state.problems.forget(nodes.get(name)!);
    nodes.delete(name);
    state.events.emit({ kind: "resource-removed", name });
  }
  state.graph = next;
  if (reused) {
    // Same resources at the same places: only the entries' objects and the changed ones' revisions move.
    for (let i = 0; i < next.entries.length; i++) state.nodeAt[i]!.config = next.entries[i]!.config;
    for (const name of plan.modified) markChanged(nodes.get(name)!, rev);
  } else {
    adoptGraph(state, plan.modified, rev);
  }
  const aligned = next.entries.length === prepared.configs.length;
  for (let i = 0; i < prepared.inputs.length; i++) {
    const input = prepared.inputs[i];
    if (input) rememberValidation(state, input, aligned ? state.nodeAt[i] : undefined, validatedWith);
  }
  for (const held of plan.held) {
    const node = nodes.get(held.name)!;
    state.retries.cancel(node);
    setStatus(state, node, held.state, held.error, !node.hold!.root);
  }
  await buildLevels(state, plan.build);
  if (!replan) announceApplied(state, rev, plan);
  return { outcome: "applied", revision: rev, plan };
}

function fullPlan(state: EngineState, inputs: PlanResourceInput[]) {
  const { nodes, preparer } = state;
  const running = (name: string, path: string) => preparer.runningInput(nodes.get(name), path);
  return planKeepingRunning(inputs, nodes, running, (list) => {
    const { entries, rejected } = toGraphEntries(list);
    return computePlan(nodes, state.graph, entries, rejected);
  });
}

/** Brings every node in line with the new graph, creating the added ones. */
function adoptGraph(state: EngineState, modified: string[], rev: string): void {
  const { graph, nodes } = state;
  const now = state.clock.now();
  const nodeAt: EngineNode[] = [];
  for (let i = 0; i < graph.entries.length; i++) {
    const e = graph.entries[i]!;
    let node = nodes.get(e.name);
    if (node === undefined) {
      node = createEngineNode(e.name, e.config, e.path, rev, now);
      nodes.set(e.name, node);
      state.events.emit({ kind: "resource", status: node.status });
    }
    node.config = e.config;
    node.path = e.path;
    node.index = i;
    node.hold = graph.hold[i];
    node.joined = e.joined;
    nodeAt.push(node);
  }
  state.nodeAt = nodeAt;
  const { simple, aliases } = nameLookups(graph.entries);
  state.simpleNames = simple;
  state.aliases = aliases;
  for (const name of modified) markChanged(nodes.get(name)!, rev);
}

function markChanged(node: EngineNode, rev: string): void {
  node.status = { ...node.status, revision: rev };
  node.attempts = 0;
}

function rememberValidation(state: EngineState, input: PlanResourceInput, at: EngineNode | undefined, generation: number): void {
  const node = at ?? state.nodes.get(`${input.config.api}/${input.config.name}`);
  if (node === undefined || node.config !== input.config) return;
  node.validated = {
    path: input.path!,
    registryGeneration: generation,
    result: { modelKnown: input.modelKnown !== false, absent: input.absent, requires: input.requires!, optional: input.optional!, issues: input.issues! },
  };
}

function announceApplied(state: EngineState, rev: string, plan: ReconfigurePlan): void {
  state.revision = rev;
  state.logger.info(`configuration ${rev} applied`, {
    added: plan.added.length,
    modified: plan.modified.length,
    removed: plan.removed.length,
    closed: plan.close.reduce((n, group) => n + group.length, 0),
    built: plan.build.reduce((n, level) => n + level.length, 0),
  });
  state.events.emit({ kind: "applied", revision: rev, plan });
  if (state.machineState === "INITIALIZING") {
    state.machineState = "RUNNING";
    state.events.emit({ kind: "machine", state: state.machineState });
  }
}
