// The reconfiguration engine: applies configurations by plan (close what changed, dependents
// first; build in level order, a bounded number at a time, each as soon as its dependencies have
// settled and within a timeout; a running resource whose new entry has a configuration error runs
// on), retries what failed with backoff, rebuilds what was waiting the moment its dependency or
// model appears, and shuts everything down dependents-first. Resources other parts of the machine
// serve are joined beside the configured ones (join), and planned again whenever what is joined
// changes. Status changes go out as events, and each resource that cannot run is named in the log
// once; nothing here reaches up.
//
// The engine is its state (engine-state.ts) and three phases that move it (applyConfig,
// buildLevels, closeGroups), run one operation at a time by the operation queue; this file wires
// them to the maintenance gate and the registry and answers what the machine asks.
import type { Resource } from "../resource/index.js";
import { errorMessage } from "../errors/index.js";
import { applyConfig } from "./apply-config.js";
import { buildLevels } from "./build-levels.js";
import { closeGroups, closeRunning } from "./close-resources.js";
import { createEngineState, type EngineState } from "./engine-state.js";
import type { ApplyResult, GraphConfig, GraphEngine, GraphEngineOptions, JoinedResource, ShutdownReport } from "./engine-types.js";
import { checkMaintenance, createMaintenanceGate, type MaintenanceDecision } from "./maintenance-gate.js";
import { createOperationQueue, type OperationQueue, type RootKind } from "./operation-queue.js";
import { closeOrder } from "./plan.js";
import type { ResourceStatus } from "./resource-status.js";
import { planRootWork } from "./root-work.js";

/** The engine's state and the parts that run its operations, as the module functions below take them. */
interface Engine {
  readonly state: EngineState;
  readonly options: GraphEngineOptions;
  readonly queue: OperationQueue<GraphConfig>;
  readonly gate: ReturnType<typeof createMaintenanceGate<{ config: GraphConfig; revision: string }>>;
  readonly stopWatchingRegistry: () => void;
  revisionCounter: number;
  shutdown: Promise<ShutdownReport> | undefined;
}

// The methods are thin: on a microcontroller each closure carries a copy of its code, so the
// work is in the module functions below, made once.
export function createGraphEngine(options: GraphEngineOptions): GraphEngine {
  const { registry, clock } = options;
  const state: EngineState = createEngineState(options, (name, kind) => queue.root(name, kind));
  const queue = createOperationQueue<GraphConfig>({
    apply: (config, rev) => applyConfig(state, config, rev, false),
    replan: () => replan(state),
    roots: (batch) => rebuildRoots(state, batch),
    failed: (thrown) => state.logger.error(`reconfiguration step failed: ${errorMessage(thrown)}`),
  });
  const engine: Engine = {
    state,
    options,
    queue,
    gate: createMaintenanceGate<{ config: GraphConfig; revision: string }>({
      clock,
      logger: state.logger,
      check: (m) => checkWindow(engine, m),
      recheckMs: options.maintenanceRecheckMs,
      release: (item) => void queue.apply(item.config, item.revision),
    }),
    stopWatchingRegistry: registry.onChange(() => {
      // Before the first configuration there is nothing to re-plan: it will be validated afresh.
      if (state.current !== undefined) queue.replan();
    }),
    revisionCounter: 0,
    shutdown: undefined,
  };
  return {
    apply: (config, applyOptions) => apply(engine, config, applyOptions?.revision),
    status: () => status(engine),
    resourceStatus: (name) => state.nodes.get(fullNameOf(state, name))?.status,
    resource: (name) => resourceNamed(state, name),
    join: (key, resources) => join(engine, key, resources),
    checkMaintenance(): Promise<MaintenanceDecision> {
      const maintenance = state.current?.maintenance;
      return maintenance ? checkWindow(engine, maintenance) : Promise.resolve({ allowed: true });
    },
    onEvent: state.events.on,
    whenIdle: () => queue.idle(),
    close: () => (engine.shutdown ??= shutDown(engine)),
  };
}

async function replan(state: EngineState): Promise<void> {
  if (state.current) await applyConfig(state, state.current, state.revision, true);
}

const lookupRunning = (state: EngineState, name: string): Resource | undefined => state.nodes.get(name)?.live?.resource;

/** A full name, or one written with a joined resource's simple name (`rdk:component:motor/left` for `pi:left`). */
const fullNameOf = (state: EngineState, name: string): string => (state.nodes.has(name) ? name : (state.aliases.get(name) ?? name));

function resourceNamed(state: EngineState, name: string): Resource | undefined {
  const full = name.indexOf("/") >= 0 ? fullNameOf(state, name) : state.simpleNames.get(name);
  return full ? lookupRunning(state, full) : undefined;
}

function checkWindow(engine: Engine, m: NonNullable<GraphConfig["maintenance"]>): Promise<MaintenanceDecision> {
  const { state, options } = engine;
  return checkMaintenance(m, (name) => lookupRunning(state, name), state.clock, options.maintenanceReadTimeoutMs);
}

async function apply(engine: Engine, config: GraphConfig, revision: string | undefined): Promise<ApplyResult> {
  const { state, queue, gate } = engine;
  if (state.shuttingDown) return { outcome: "closed" };
  const rev = revision ?? String(++engine.revisionCounter);
  // Start-up is never gated: nothing has been applied yet.
  if (state.current === undefined) return queue.apply(config, rev);
  const decision = await gate.submit({ config, revision: rev }, config.maintenance ?? undefined);
  if (decision.kind === "allowed") return queue.apply(config, rev);
  if (decision.kind === "superseded") return { outcome: "superseded" };
  state.events.emit({ kind: "deferred", reason: decision.reason });
  return { outcome: "deferred", reason: decision.reason };
}

function status(engine: Engine): ReturnType<GraphEngine["status"]> {
  const { state } = engine;
  const resources: ResourceStatus[] = [];
  state.nodes.forEach((node) => resources.push(node.status));
  return { state: state.machineState, revision: state.revision, reconfiguring: engine.queue.busy, deferred: engine.gate.deferred, resources };
}

function join(engine: Engine, key: string, resources: readonly JoinedResource[]): void {
  const { state } = engine;
  if (state.shuttingDown) return;
  if (resources.length === 0) {
    if (!state.joined.delete(key)) return;
  } else state.joined.set(key, resources.slice());
  // Before the first configuration there is nothing to plan again: the first is planned with them.
  if (state.current !== undefined) engine.queue.replan();
}

async function shutDown(engine: Engine): Promise<ShutdownReport> {
  const { state, queue } = engine;
  state.shuttingDown = true;
  engine.gate.stop();
  state.problems.stop();
  engine.stopWatchingRegistry();
  state.nodes.forEach(state.retries.cancel);
  queue.stop();
  await settle(queue, state);
  return closeRunning(state);
}

/** Resources to retry (not running) or refresh (holding an outdated dependency), with what depends on them. */
async function rebuildRoots(state: EngineState, batch: Map<string, RootKind>): Promise<void> {
  const work = planRootWork(batch, state.nodes, state.nodeAt, state.graph);
  if (!work) return;
  await closeGroups(state, closeOrder(state.nodes, work.running));
  await buildLevels(state, work.levels);
}

/** Lets an operation under way reach its next step, but waits no longer than one close may take. */
async function settle(queue: OperationQueue<GraphConfig>, state: EngineState): Promise<void> {
  if (!queue.busy) return;
  const { clock } = state;
  await new Promise<void>((resolve) => {
    const timer = clock.setTimeout(resolve, state.closeTimeoutMs);
    void queue.idle().then(() => {
      clock.clearTimeout(timer);
      resolve();
    });
  });
}
