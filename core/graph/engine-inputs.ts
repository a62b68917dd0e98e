// What the engine hands the planner for a configuration: every entry with its path and what its
// model's validator says, and a running resource's own entry when a new one is refused. An entry
// equal to the running one keeps the validation it had (while the registry is unchanged), and
// then needs no input object at all, which keeps re-planning a large, mostly unchanged machine
// cheap. Resources joined from other parts follow the configured ones, each with a fresh input:
// whether one can be used now is theirs to say each time.
import type { ResourceConfig } from "../config/index.js";
import { validateResourceConfig, type LoggerLike, type ModelRegistry, type ResourceValidation } from "../resource/index.js";
import { resourceConfigEqual } from "./config-equal.js";
import type { DependencyGraph } from "./dependency-graph.js";
import type { EngineNode } from "./engine-node.js";
import type { GraphConfig, JoinedResource } from "./engine-types.js";
import type { PlanResourceInput } from "./graph-entry.js";
import { runningEntryInput } from "./keep-running.js";

export interface PreparedEntries {
  configs: ResourceConfig[];
  paths: string[];
  /** An input for each entry that is new, changed or validated afresh; undefined for the rest. */
  inputs: (PlanResourceInput | undefined)[];
  validations: ResourceValidation[];
  /** What a joined entry is, by position; undefined for a configured one. */
  joined: (Pick<PlanResourceInput, "joined" | "unavailable"> | undefined)[];
}

export interface EntryPreparer {
  /** `nodeAt[i]` is the node at position i of `graph`. */
  prepare(
    config: GraphConfig,
    joined: ReadonlyMap<string, readonly JoinedResource[]>,
    nodes: ReadonlyMap<string, EngineNode>,
    graph: DependencyGraph,
    nodeAt: readonly EngineNode[],
  ): PreparedEntries;
  /** Every entry as a full input, for a plan from scratch. */
  allInputs(prepared: PreparedEntries): PlanResourceInput[];
  /**
   * The entry a running resource was built from, as an input at `path` (validated afresh when the
   * registry moved since); undefined when it is not running or that entry no longer stands.
   */
  runningInput(node: EngineNode | undefined, path: string): PlanResourceInput | undefined;
}

/** What the preparer keeps: the registry it validates with, and the path strings made so far. */
interface PreparerParts {
  registry: ModelRegistry;
  logger: LoggerLike;
  // Paths are made once per position, so comparing them later is comparing the same strings.
  pathCache: Map<string, string[]>;
}

// The methods are thin: on a microcontroller each closure made here carries a copy of its code,
// so the work is in the module functions below, made once.
export function createEntryPreparer(registry: ModelRegistry, logger: LoggerLike): EntryPreparer {
  const parts: PreparerParts = { registry, logger, pathCache: new Map() };
  return {
    runningInput: (node, path) => runningInput(registry, node, path),
    prepare: (config, joined, nodes, graph, nodeAt) => prepareEntries(parts, config, joined, nodes, graph, nodeAt),
    allInputs,
  };
}

function pathOf(parts: PreparerParts, key: string, i: number): string {
  let list = parts.pathCache.get(key);
  if (!list) parts.pathCache.set(key, (list = []));
  while (list.length <= i) list.push(`${key}[${list.length}]`);
  return list[i]!;
}

function runningInput(registry: ModelRegistry, node: EngineNode | undefined, path: string): PlanResourceInput | undefined {
  if (!node?.running) return undefined;
  const cached = node.validated;
  const fresh = cached && cached.path === path && cached.registryGeneration === registry.generation;
  const v = fresh ? cached.result : validateResourceConfig(registry, node.config, path);
  const input: PlanResourceInput = { config: node.config, path, requires: v.requires, optional: v.optional, issues: v.issues, modelKnown: v.modelKnown };
  if (v.absent !== undefined) input.absent = v.absent;
  return runningEntryInput(input, path);
}

function prepareEntries(
  parts: PreparerParts,
  config: GraphConfig,
  joined: ReadonlyMap<string, readonly JoinedResource[]>,
  nodes: ReadonlyMap<string, EngineNode>,
  graph: DependencyGraph,
  nodeAt: readonly EngineNode[],
): PreparedEntries {
  const prepared: PreparedEntries = { configs: [], paths: [], inputs: [], validations: [], joined: [] };
  const where: Placed = { nodes, graph, nodeAt, generation: parts.registry.generation };
  addEntries(parts, prepared, where, config.components, "components");
  addEntries(parts, prepared, where, config.services, "services");
  joined.forEach((resources, key) => addEntries(parts, prepared, where, resources.map((r) => r.config), key, resources));
  return prepared;
}

/** The graph as applied, to find each entry's node in, and the registry generation now. */
interface Placed {
  nodes: ReadonlyMap<string, EngineNode>;
  graph: DependencyGraph;
  nodeAt: readonly EngineNode[];
  generation: number;
}

function addEntries(
  parts: PreparerParts,
  prepared: PreparedEntries,
  where: Placed,
  list: readonly ResourceConfig[] | undefined,
  key: string,
  marks?: readonly JoinedResource[],
): void {
  if (!list) return;
  const { nodes, graph, nodeAt, generation } = where;
  for (let i = 0; i < list.length; i++) {
    const entry = list[i]!;
    const path = marks ? key : pathOf(parts, key, i);
    const mark = marks && { joined: true, unavailable: marks[i]!.unavailable };
    prepared.joined.push(mark);
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
    if (!mark && unchanged && cached && cached.registryGeneration === generation && cached.path === path) {
      prepared.validations.push(cached.result);
      prepared.inputs.push(undefined);
      continue;
    }
    const v = validateResourceConfig(parts.registry, entry, path);
    for (const issue of v.issues) if (issue.severity === "warning") parts.logger.warn(`${issue.path}: ${issue.message}`);
    prepared.validations.push(v);
    prepared.inputs.push({ config: entry, path, requires: v.requires, optional: v.optional, issues: v.issues, modelKnown: v.modelKnown, absent: v.absent, unchanged, ...mark });
  }
}

function allInputs(prepared: PreparedEntries): PlanResourceInput[] {
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
        ...prepared.joined[i],
      },
    );
  }
  return all;
}
