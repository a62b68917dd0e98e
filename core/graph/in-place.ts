// Which changed resources keep their running instance: those whose model is unchanged and can
// take a new configuration through its `reconfigure` (a modular resource tells its module), and
// that are neither held back nor stopped.
import type { ModelRegistry } from "../resource/index.js";
import type { DependencyGraph } from "./dependency-graph.js";
import type { EngineNode } from "./engine-node.js";

export function inPlaceCandidates(
  modified: readonly string[],
  nodes: ReadonlyMap<string, EngineNode>,
  next: DependencyGraph,
  registry: ModelRegistry,
): Set<string> {
  const found = new Set<string>();
  for (const name of modified) {
    const node = nodes.get(name);
    const i = next.index.get(name);
    if (!node?.running || i === undefined || next.hold[i]) continue;
    const config = next.entries[i]!.config;
    if (config.model === node.config.model && registry.lookup(config.api, config.model)?.reconfigure) found.add(name);
  }
  return found;
}
