// The close phase: running resources closed group by group (a plan's groups put dependents
// first), a bounded number at a time, each within the close timeout. A close that fails or hangs
// is reported and the resource counts as closed all the same: nothing waits on it forever.
import { runPool } from "./bounded.js";
import { dropUser, NOTHING_GIVEN, type CloseOutcome, type EngineNode } from "./engine-node.js";
import { setStatus, type EngineState } from "./engine-state.js";
import type { ShutdownReport } from "./engine-types.js";
import { closeOrder } from "./plan.js";

/** Closes a node's running instance, if it has one, and leaves the node UNCONFIGURED. */
export async function closeNode(state: EngineState, node: EngineNode): Promise<CloseOutcome | undefined> {
  const live = node.live;
  if (!live) return undefined;
  setStatus(state, node, "REMOVING");
  const outcome = await state.lifecycle.close(live, node.name);
  if (node.live === live) {
    for (const dep of node.builtWith) dropUser(state.nodes.get(dep), node.name);
    node.live = undefined;
    node.running = false;
    node.builtWith = NOTHING_GIVEN;
    node.builtGenerations = NOTHING_GIVEN;
    setStatus(state, node, "UNCONFIGURED");
  }
  return outcome;
}

/** Closes the named resources, one group after the other; `report` collects how each close went. */
export async function closeGroups(state: EngineState, groups: string[][], report?: ShutdownReport): Promise<void> {
  for (const group of groups) {
    await runPool(group, state.cap, async (name) => {
      const node = state.nodes.get(name);
      const outcome = node && (await closeNode(state, node));
      if (!report || !outcome) return;
      if (outcome.kind === "closed") report.closed.push(name);
      else if (outcome.kind === "hung") report.hung.push(name);
      else report.failed.push({ name, error: outcome.error });
    });
  }
}

/** Closes every running resource, dependents first, and says how it went. */
export async function closeRunning(state: EngineState): Promise<ShutdownReport> {
  const report: ShutdownReport = { closed: [], failed: [], hung: [] };
  const running: string[] = [];
  state.nodes.forEach((node) => {
    if (node.running) running.push(node.name);
  });
  await closeGroups(state, closeOrder(state.nodes, running), report);
  state.logger.info("resources closed", { closed: report.closed.length, failed: report.failed.length, hung: report.hung.length });
  return report;
}
