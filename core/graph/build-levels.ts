// The build phase: resources built in level order, a bounded number at a time, each as soon as
// its dependencies have settled. A running resource marked for it is reconfigured in place by its
// model (closed and built afresh when that fails); a failed build is retried with backoff; a
// resource whose dependency or model is missing waits, saying for what. Dependents outside the
// pass that wait for, or hold an old copy of, what just came up are queued to follow.
import { runByDependencies } from "./build-scheduler.js";
import { closeNode } from "./close-resources.js";
import { waitingFor } from "./dependency-graph.js";
import { addUser, describeState, dropUser, gatherDependencies, isStale, NOTHING_GIVEN, type EngineNode, type GivenDependencies } from "./engine-node.js";
import { setStatus, type EngineState } from "./engine-state.js";

export async function buildLevels(state: EngineState, levels: string[][]): Promise<void> {
  const stamp = ++state.pass;
  const readied: EngineNode[] = [];
  const members: number[] = [];
  for (const level of levels) for (const name of level) members.push(state.nodes.get(name)!.index);
  await runByDependencies(state.graph, members, state.cap, (i) => buildNode(state, state.nodeAt[i]!.name, stamp, readied), () => state.shuttingDown);
  if (state.shuttingDown) return;
  const { graph, nodeAt } = state;
  for (const node of readied) {
    if (!node.running || state.nodes.get(node.name) !== node) continue;
    for (let k = graph.dependentStart[node.index]!; k < graph.dependentStart[node.index + 1]!; k++) {
      const dep = nodeAt[graph.dependentFrom[k]!]!;
      if (state.attemptedIn.get(dep) === stamp || dep.hold) continue;
      if (!dep.running) state.requestRoot(dep.name, "retry");
      else if (isStale(dep, graph, state.nodes)) state.requestRoot(dep.name, "refresh");
    }
  }
}

async function buildNode(state: EngineState, name: string, stamp: number, readied: EngineNode[]): Promise<void> {
  const { nodes } = state;
  const node = nodes.get(name);
  if (!node || state.shuttingDown) return;
  const inPlace = state.reconfigureInPlace.delete(node) && node.running;
  if (node.hold || (node.running && !inPlace)) return;
  state.attemptedIn.set(node, stamp);
  state.retries.cancel(node);
  const given = gatherDependencies(node, state.graph, nodes);
  if ("status" in given) {
    if (inPlace) await closeNode(state, node);
    setStatus(state, node, "UNCONFIGURED", waitingFor(given.name, describeState(given)), true);
    return;
  }
  const registration = state.registry.lookup(node.config.api, node.config.model);
  if (inPlace) {
    if (registration?.reconfigure) {
      setStatus(state, node, "CONFIGURING");
      const outcome = await state.lifecycle.reconfigure(node, node.live!, registration, given, () => state.shuttingDown);
      if (outcome.ok && nodes.get(name) === node && node.running) {
        for (const dep of node.builtWith) dropUser(nodes.get(dep), name);
        markReady(state, node, given, readied);
        return;
      }
      if (!outcome.ok) state.logger.warn(`${name}: ${outcome.error}; building it afresh`);
    }
    await closeNode(state, node);
    if (state.shuttingDown || nodes.get(name) !== node) return;
  }
  if (registration === undefined) {
    // The registry announces the model when it comes; the re-plan then builds this resource.
    setStatus(state, node, "UNCONFIGURED", `no model ${node.config.model} is registered for API ${node.config.api}; waiting for it to be registered`);
    return;
  }
  setStatus(state, node, "CONFIGURING");
  const outcome = await state.lifecycle.build(node, registration, given, () => state.shuttingDown);
  if (!outcome.ok) {
    setStatus(state, node, "UNHEALTHY", outcome.error);
    scheduleRetry(state, node);
    return;
  }
  if (state.shuttingDown || nodes.get(name) !== node) {
    void state.lifecycle.close(outcome.live, name);
    return;
  }
  node.live = outcome.live;
  node.running = true;
  node.generation++;
  markReady(state, node, given, readied);
}

/** Records what a running instance was given and announces it READY. */
function markReady(state: EngineState, node: EngineNode, given: GivenDependencies, readied: EngineNode[]): void {
  node.builtWith = given.names.length === 0 ? NOTHING_GIVEN : given.names;
  node.builtGenerations = given.generations.length === 0 ? NOTHING_GIVEN : given.generations;
  for (const dep of given.names) addUser(state.nodes.get(dep)!, node.name);
  node.attempts = 0;
  setStatus(state, node, "READY");
  readied.push(node);
}

function scheduleRetry(state: EngineState, node: EngineNode): void {
  if (state.shuttingDown) return state.retries.cancel(node);
  state.retries.schedule(node, () => {
    if (state.nodes.get(node.name) === node) state.requestRoot(node.name, "retry");
  });
}
