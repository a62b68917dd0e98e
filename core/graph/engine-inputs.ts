// What the engine hands the planner for a configuration: every entry with its path and what its
// model's validator says, and a running resource's own entry when a new one is refused. An entry
// equal to the running one keeps the validation it had (while the registry is unchanged), and
// then needs no input object at all, which keeps re-planning a large, mostly unchanged machine
// cheap.
import type { ResourceConfig } from "../config/index.js";
import { validateResourceConfig, type LoggerLike, type ModelRegistry, type ResourceValidation } from "../resource/index.js";
import { resourceConfigEqual } from "./config-equal.js";
import type { DependencyGraph } from "./dependency-graph.js";
import type { EngineNode } from "./engine-node.js";
import type { GraphConfig } from "./engine-types.js";
import type { PlanResourceInput } from "./graph-entry.js";
import { runningEntryInput } from "./keep-running.js";

export interface PreparedEntries {
  configs: ResourceConfig[];
  paths: string[];
  /** An input for each entry that is new, changed or validated afresh; undefined for the rest. */
  inputs: (PlanResourceInput | undefined)[];
  validations: ResourceValidation[];
}

export interface EntryPreparer {
  /** `nodeAt[i]` is the node at position i of `graph`. */
  prepare(config: GraphConfig, nodes: ReadonlyMap<string, EngineNode>, graph: DependencyGraph, nodeAt: readonly EngineNode[]): PreparedEntries;
  /** Every entry as a full input, for a plan from scratch. */
  allInputs(prepared: PreparedEntries): PlanResourceInput[];
  /**
   * The entry a running resource was built from, as an input at `path` (validated afresh when the
   * registry moved since); undefined when it is not running or that entry no longer stands.
   */
  runningInput(node: EngineNode | undefined, path: string): PlanResourceInput | undefined;
}

export function createEntryPreparer(registry: ModelRegistry, logger: LoggerLike): EntryPreparer {
  // Paths are made once per position, so comparing them later is comparing the same strings.
  const pathCache = new Map<string, string[]>();
  const pathOf = (key: string, i: number): string => {
    let list = pathCache.get(key);
    if (!list) pathCache.set(key, (list = []));
    while (list.length <= i) list.push(`${key}[${list.length}]`);
    return list[i]!;
  };

  return {
    runningInput(node, path) {
      if (!node?.running) return undefined;
      const cached = node.validated;
      const fresh = cached && cached.path === path && cached.registryGeneration === registry.generation;
      const v = fresh ? cached.result : validateResourceConfig(registry, node.config, path);
      const input: PlanResourceInput = { config: node.config, path, requires: v.requires, optional: v.optional, issues: v.issues, modelKnown: v.modelKnown };
      if (v.absent !== undefined) input.absent = v.absent;
      return runningEntryInput(input, path);
    },
    prepare(config, nodes, graph, nodeAt) {
      const prepared: PreparedEntries = { configs: [], paths: [], inputs: [], validations: [] };
      const generation = registry.generation;
      const add = (list: ResourceConfig[] | undefined, key: string) => {
        if (!list) return;
        for (let i = 0; i < list.length; i++) {
          const entry = list[i]!;
          const path = pathOf(key, i);
          const position = prepared.configs.length;
          // Usually the entry at the same place in the current graph is the same resource.
          const there = position < graph.entries.length ? graph.entries[position]! : undefined;
          const node =
            there && there.config.name === entry.name && there.config.api === entry.api
              ? nodeAt[position]
              : typeof entry.api === "string" && typeof entry.name === "string"
                ? nodes.get(`${entry.api}/${entry.name}`)
                : undefined;
          const cached = node?.validated;
          const unchanged = node !== undefined && resourceConfigEqual(node.config, entry);
          prepared.configs.push(entry);
          prepared.paths.push(path);
          if (unchanged && cached && cached.registryGeneration === generation && cached.path === path) {
            prepared.validations.push(cached.result);
            prepared.inputs.push(undefined);
            continue;
          }
          const v = validateResourceConfig(registry, entry, path);
          for (const issue of v.issues) if (issue.severity === "warning") logger.warn(`${issue.path}: ${issue.message}`);
          prepared.validations.push(v);
          prepared.inputs.push({ config: entry, path, requires: v.requires, optional: v.optional, issues: v.issues, modelKnown: v.modelKnown, absent: v.absent, unchanged });
        }
      };
      add(config.components, "components");
      add(config.services, "services");
      return prepared;
    },
    allInputs(prepared) {
      const all: PlanResourceInput[] = [];
      for (let i = 0; i < prepared.configs.length; i++) {
        const v = prepared.validations[i]!;
        all.push(
          prepared.inputs[i] ?? {
            config: prepared.configs[i]!,
            path: prepared.paths[i]!,
            requires: v.requires,
            optional: v.optional,
            issues: v.issues,
            modelKnown: v.modelKnown,
            absent: v.absent,
            unchanged: true,
          },
        );
      }
      return all;
    },
  };
}
