// What a batch of retries and refreshes touches: the resources named (when they still need it)
// plus the dependents that must follow them, grouped by level for building, with those running
// now listed for closing first.
import type { DependencyGraph } from "./dependency-graph.js";
import { isStale, type EngineNode } from "./engine-node.js";
import type { RootKind } from "./operation-queue.js";

export interface RootWork {
  /** Running resources to close before rebuilding. */
  running: string[];
  /** Resources to build, lowest level first. */
  levels: string[][];
}

export function planRootWork(
  batch: Map<string, RootKind>,
  nodes: Map<string, EngineNode>,
  nodeAt: readonly EngineNode[],
  graph: DependencyGraph,
): RootWork | undefined {
  const chosen = new Set<string>();
  const order: EngineNode[] = [];
  batch.forEach((kind, name) => {
    const node = nodes.get(name);
    if (!node || node.hold) return;
    if (kind === "retry" ? node.running : !node.running || !isStale(node, graph, nodes)) return;
    chosen.add(name);
    order.push(node);
  });
  // A retried resource brings along the dependents waiting for it; a refreshed one, every dependent.
  for (let head = 0; head < order.length; head++) {
    const node = order[head]!;
    for (let k = graph.dependentStart[node.index]!; k < graph.dependentStart[node.index + 1]!; k++) {
      const dep = nodeAt[graph.dependentFrom[k]!]!;
      if (chosen.has(dep.name) || dep.hold || (!node.running && dep.running)) continue;
      chosen.add(dep.name);
      order.push(dep);
    }
  }
  if (order.length === 0) return undefined;
  const running: string[] = [];
  const levels: string[][] = [];
  for (const node of order) {
    if (node.running) running.push(node.name);
    const lv = graph.level[node.index]!;
    while (levels.length <= lv) levels.push([]);
    levels[lv]!.push(node.name);
  }
  return { running, levels: levels.filter((l) => l.length > 0) };
}
