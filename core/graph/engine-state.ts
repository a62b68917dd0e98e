// Everything the graph engine knows, in one place: the parts it works with (fixed at creation) and
// the graph as applied (moved by the phases: applyConfig, buildLevels, closeGroups). Each phase
// takes this state explicitly, so what a phase may read and change is visible at its call.
import type { Clock } from "../clock.js";
import { silentLogger, type LoggerLike, type ModelRegistry } from "../resource/index.js";
import { buildDependencyGraph, type DependencyGraph } from "./dependency-graph.js";
import { createEntryPreparer, type EntryPreparer } from "./engine-inputs.js";
import type { EngineNode } from "./engine-node.js";
import {
  DEFAULT_BUILD_CONCURRENCY,
  DEFAULT_BUILD_TIMEOUT_MS,
  DEFAULT_CLOSE_TIMEOUT_MS,
  DEFAULT_RETRY_INITIAL_MS,
  DEFAULT_RETRY_MAX_MS,
  type GraphConfig,
  type GraphEngineOptions,
  type GraphEvent,
  type JoinedResource,
} from "./engine-types.js";
import { createEventHub, type EventHub } from "./event-hub.js";
import type { RootKind } from "./operation-queue.js";
import { createProblemLog, type ProblemLog } from "./problem-log.js";
import { createResourceLifecycle, type ResourceLifecycle } from "./resource-lifecycle.js";
import type { ResourceState, ResourceStatus } from "./resource-status.js";
import { createRetryTimers, type RetryTimers } from "./retry-timers.js";

export interface EngineState {
  // ---- the parts the engine works with ----
  readonly registry: ModelRegistry;
  readonly clock: Clock;
  readonly logger: LoggerLike;
  /** Builds (and closes) at once within a level. */
  readonly cap: number;
  readonly closeTimeoutMs: number;
  readonly lifecycle: ResourceLifecycle;
  readonly preparer: EntryPreparer;
  readonly problems: ProblemLog;
  readonly retries: RetryTimers;
  readonly events: EventHub<GraphEvent>;
  /** Queues a single resource to retry (not running) or refresh (holding an outdated dependency). */
  readonly requestRoot: (name: string, kind: RootKind) => void;

  // ---- the graph as applied ----
  readonly nodes: Map<string, EngineNode>;
  graph: DependencyGraph;
  /** The node at each position of `graph`. */
  nodeAt: EngineNode[];
  /** Simple name -> full name, or null when several resources carry it. */
  simpleNames: Map<string, string | null>;
  /** A full name written with a joined resource's simple name -> its full name (null: several). */
  aliases: Map<string, string | null>;
  /** What each source joined (engine-types.ts, JoinedResource), by its key. */
  readonly joined: Map<string, readonly JoinedResource[]>;
  machineState: "INITIALIZING" | "RUNNING";
  /** Revision of the last configuration applied. */
  revision: string;
  /** The configuration last applied (or being applied); undefined before the first. */
  current: GraphConfig | undefined;
  /** The registry generation the last plan was made under. */
  plannedWith: number;
  shuttingDown: boolean;
  /** Every build pass gets a stamp; a node attempted in the pass carries it. */
  pass: number;
  readonly attemptedIn: WeakMap<EngineNode, number>;
  /** Running resources whose changed configuration goes to their model's `reconfigure` instead of close + build. */
  readonly reconfigureInPlace: Set<EngineNode>;
}

export function createEngineState(options: GraphEngineOptions, requestRoot: EngineState["requestRoot"]): EngineState {
  const { registry, clock } = options;
  const logger = options.logger ?? silentLogger;
  return {
    registry,
    clock,
    logger,
    cap: Math.max(1, options.buildConcurrency ?? DEFAULT_BUILD_CONCURRENCY),
    closeTimeoutMs: options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS,
    lifecycle: createResourceLifecycle({
      clock,
      logger,
      buildTimeoutMs: options.buildTimeoutMs ?? DEFAULT_BUILD_TIMEOUT_MS,
      closeTimeoutMs: options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS,
      loggerFor: options.loggerFor,
    }),
    preparer: createEntryPreparer(registry, logger),
    problems: createProblemLog(logger, clock),
    retries: createRetryTimers(clock, options.retryInitialMs ?? DEFAULT_RETRY_INITIAL_MS, options.retryMaxMs ?? DEFAULT_RETRY_MAX_MS),
    events: createEventHub<GraphEvent>(logger),
    requestRoot,
    nodes: new Map(),
    graph: buildDependencyGraph([]),
    nodeAt: [],
    simpleNames: new Map(),
    aliases: new Map(),
    joined: new Map(),
    machineState: "INITIALIZING",
    revision: "",
    current: undefined,
    plannedWith: -1,
    shuttingDown: false,
    pass: 0,
    attemptedIn: new WeakMap(),
    reconfigureInPlace: new Set(),
  };
}

/** Sets a resource's state (and the reason it is not running), telling the log and the listeners once per change. */
export function setStatus(state: EngineState, node: EngineNode, next: ResourceState, error?: string, waiting = false): void {
  node.waiting = waiting;
  const was = node.status;
  if (was.state === next && was.error === error) return;
  const status: ResourceStatus = { name: node.name, state: next, revision: was.revision, changedAt: state.clock.now() };
  if (error !== undefined) status.error = error;
  node.status = status;
  state.problems.status(node, next, error);
  state.events.emit({ kind: "resource", status });
}
