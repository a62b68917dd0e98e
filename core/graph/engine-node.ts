// What the engine keeps per configured resource: its entry, its status, its live instance and the
// exact dependency instances that instance was given (by generation), so the engine can tell a
// resource that is up to date from one holding an old dependency.
import type { ResourceConfig } from "../config/index.js";
import type { Resource, ResourceDependencies, ResourceName, ResourceValidation } from "../resource/index.js";
import type { DependencyGraph } from "./dependency-graph.js";
import type { PlannedNode } from "./plan.js";
import type { Hold, ResourceStatus } from "./resource-status.js";

export type CloseOutcome = { kind: "closed" } | { kind: "failed"; error: string } | { kind: "hung" };

/** One built instance; `closing` makes sure it is closed at most once. */
export interface Live {
  resource: Resource;
  closing?: Promise<CloseOutcome>;
}

export interface EngineNode extends PlannedNode {
  name: string;
  resourceName: ResourceName;
  config: ResourceConfig;
  path: string;
  /** Its index in the engine's current graph. */
  index: number;
  hold: Hold | undefined;
  status: ResourceStatus;
  /** True when the current error is about waiting for another resource. */
  waiting: boolean;
  live: Live | undefined;
  running: boolean;
  /** Counts instances built; a dependent remembers which generation it was given. */
  generation: number;
  builtWith: readonly string[];
  builtGenerations: readonly number[];
  /** Changed through addUser and dropUser only: a node nobody uses shares one empty set. */
  usedBy: ReadonlySet<string>;
  attempts: number;
  retryTimer: unknown;
  /** What the validator said, for the path and registry generation it was asked under. */
  validated?: { path: string; registryGeneration: number; result: ResourceValidation };
  /** The problem last said in the log about it, until it runs. */
  reported?: string;
  /** Joined from another part of the machine: whoever joined it says its problems. */
  joined?: boolean;
}

// Shared by every node that was given nothing or that nobody uses, so a machine of many
// resources does not keep two empty arrays and an empty set for each. Never changed.
export const NOTHING_GIVEN: readonly never[] = [];
const NO_USERS: ReadonlySet<string> = new Set();

/** Records that `user`'s live instance was given `node`. */
export function addUser(node: EngineNode, user: string): void {
  if (node.usedBy === NO_USERS) node.usedBy = new Set([user]);
  else (node.usedBy as Set<string>).add(user);
}

/** Forgets that `user` was given `node`. */
export function dropUser(node: EngineNode | undefined, user: string): void {
  if (node === undefined || !node.usedBy.has(user)) return;
  if (node.usedBy.size === 1) node.usedBy = NO_USERS;
  else (node.usedBy as Set<string>).delete(user);
}

export function createEngineNode(name: string, config: ResourceConfig, path: string, revision: string, now: number): EngineNode {
  const slash = name.indexOf("/");
  const [namespace, type, subtype] = name.slice(0, slash).split(":") as [string, string, string];
  return {
    name,
    resourceName: { namespace, type, subtype, name: config.name },
    config,
    path,
    index: -1,
    hold: undefined,
    status: { name, state: "UNCONFIGURED", revision, changedAt: now },
    waiting: false,
    live: undefined,
    running: false,
    generation: 0,
    builtWith: NOTHING_GIVEN,
    builtGenerations: NOTHING_GIVEN,
    usedBy: NO_USERS,
    attempts: 0,
    retryTimer: undefined,
  };
}

/** `STATE` or `STATE: error`, the latter when the error is the resource's own. */
export function describeState(node: EngineNode): string {
  const s = node.status;
  return s.error !== undefined && !node.waiting ? `${s.state}: ${s.error}` : s.state;
}

export interface GivenDependencies {
  view: ResourceDependencies;
  names: string[];
  generations: number[];
}

/**
 * The dependencies to hand to a build: every running one, found by the name the configuration
 * wrote, by full name, or by simple name when only one of them carries it. Returns the first
 * required dependency that is not running instead, when there is one.
 */
export function gatherDependencies(node: EngineNode, graph: DependencyGraph, nodes: ReadonlyMap<string, EngineNode>): GivenDependencies | EngineNode {
  const i = node.index;
  const names: string[] = [];
  const generations: number[] = [];
  const written: string[] = [];
  const resources: Resource[] = [];
  const simple: string[] = [];
  for (let j = graph.edgeStart[i]!; j < graph.edgeStart[i + 1]!; j++) {
    const dep = nodes.get(graph.entries[graph.edgeTo[j]!]!.name)!;
    if (!dep.running) {
      if (graph.edgeRequired[j]) return dep;
      continue;
    }
    names.push(dep.name);
    generations.push(dep.generation);
    written.push(graph.edgeWritten[j]!);
    resources.push(dep.live!.resource);
    simple.push(dep.config.name);
  }
  const view = new GivenView(names, written, resources, simple);
  return { view, names, generations };
}

/**
 * The dependencies a build is given, looked up by the name the configuration wrote, the full name
 * or an unambiguous simple name. A class, so every build shares its methods: on a microcontroller
 * each closure made per build carries a copy of its code.
 */
class GivenView implements ResourceDependencies {
  constructor(
    private readonly full: readonly string[],
    private readonly written: readonly string[],
    private readonly resources: readonly Resource[],
    private readonly simple: readonly string[],
  ) {}

  // A resource has few dependencies: looking them up by scanning beats building a map per build.
  get(name: string): Resource | undefined {
    const { full, written, resources, simple } = this;
    let bySimple = -1;
    for (let k = 0; k < full.length; k++) {
      if (written[k] === name || full[k] === name) return resources[k];
      if (simple[k] === name) bySimple = bySimple === -1 ? k : -2;
    }
    return bySimple >= 0 ? resources[bySimple] : undefined;
  }

  names(): string[] {
    return this.full.slice();
  }
}

/** True when a running node holds an instance of a dependency that has since been replaced or appeared. */
export function isStale(node: EngineNode, graph: DependencyGraph, nodes: ReadonlyMap<string, EngineNode>): boolean {
  const i = node.index;
  const given = node.builtWith;
  // `builtWith` follows the order of the edges it was built from; a reordered depends_on needs a map.
  let byName: Map<string, number> | undefined;
  let p = 0;
  for (let j = graph.edgeStart[i]!; j < graph.edgeStart[i + 1]!; j++) {
    const dep = nodes.get(graph.entries[graph.edgeTo[j]!]!.name)!;
    let generation = 0;
    if (byName === undefined && given[p] === dep.name) generation = node.builtGenerations[p++]!;
    else {
      if (byName === undefined) {
        byName = new Map();
        for (let k = 0; k < given.length; k++) byName.set(given[k]!, node.builtGenerations[k]!);
      }
      generation = byName.get(dep.name) ?? 0;
    }
    if (generation !== (dep.running ? dep.generation : 0)) return true;
  }
  return false;
}
