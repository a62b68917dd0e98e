// The reconfiguration engine: applies configurations by plan (close what changed, dependents
// first; build in level order, a bounded number at a time, each as soon as its dependencies have
// settled and within a timeout; a running resource whose new entry has a configuration error runs
// on), retries what failed with backoff, rebuilds what was waiting the moment its dependency or
// model appears, and shuts everything down dependents-first. Status changes go out as events, and
// each resource that cannot run is named in the log once; nothing here reaches up.
import { errorMessage, silentLogger, type Resource } from "../resource/index.js";
import { runPool } from "./bounded.js";
import { runByDependencies } from "./build-scheduler.js";
import { buildDependencyGraph, waitingFor } from "./dependency-graph.js";
import { createEntryPreparer } from "./engine-inputs.js";
import { createEngineNode, describeState, gatherDependencies, isStale, type CloseOutcome, type EngineNode, type GivenDependencies } from "./engine-node.js";
import {
  DEFAULT_BUILD_CONCURRENCY,
  DEFAULT_BUILD_TIMEOUT_MS,
  DEFAULT_CLOSE_TIMEOUT_MS,
  DEFAULT_RETRY_INITIAL_MS,
  DEFAULT_RETRY_MAX_MS,
  type ApplyResult,
  type GraphConfig,
  type GraphEngine,
  type GraphEngineOptions,
  type GraphEvent,
  type ShutdownReport,
} from "./engine-types.js";
import { toGraphEntries, type PlanResourceInput } from "./graph-entry.js";
import { checkMaintenance, createMaintenanceGate, type MaintenanceDecision } from "./maintenance-gate.js";
import { createOperationQueue, type RootKind } from "./operation-queue.js";
import { inPlaceCandidates } from "./in-place.js";
import { closeOrder, computePlan } from "./plan.js";
import { reusePlan } from "./plan-reuse.js";
import { createResourceLifecycle } from "./resource-lifecycle.js";
import { createRetryTimers } from "./retry-timers.js";
import { createEventHub } from "./event-hub.js";
import { planKeepingRunning } from "./keep-running.js";
import { createProblemLog } from "./problem-log.js";
import { planRootWork } from "./root-work.js";
import type { ResourceState, ResourceStatus } from "./resource-status.js";

export function createGraphEngine(options: GraphEngineOptions): GraphEngine {
  const { registry, clock } = options;
  const logger = options.logger ?? silentLogger;
  const cap = Math.max(1, options.buildConcurrency ?? DEFAULT_BUILD_CONCURRENCY);
  const closeTimeoutMs = options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
  const retries = createRetryTimers(clock, options.retryInitialMs ?? DEFAULT_RETRY_INITIAL_MS, options.retryMaxMs ?? DEFAULT_RETRY_MAX_MS);
  const lifecycle = createResourceLifecycle({
    clock,
    logger,
    buildTimeoutMs: options.buildTimeoutMs ?? DEFAULT_BUILD_TIMEOUT_MS,
    closeTimeoutMs,
    loggerFor: options.loggerFor,
  });
  const preparer = createEntryPreparer(registry, logger);
  const problems = createProblemLog(logger, clock);

  const nodes = new Map<string, EngineNode>();
  let graph = buildDependencyGraph([]);
  /** The node at each position of `graph`. */
  let nodeAt: EngineNode[] = [];
  let simpleNames = new Map<string, string | null>();
  let machineState: "INITIALIZING" | "RUNNING" = "INITIALIZING";
  let revision = "";
  let revisionCounter = 0;
  let plannedWith = -1;
  let current: GraphConfig | undefined;
  let shuttingDown = false;
  let shutdown: Promise<ShutdownReport> | undefined;
  const events = createEventHub<GraphEvent>(logger);
  const emit = events.emit;
  // Every build pass gets a stamp; a node attempted in the pass carries it.
  let pass = 0;
  const attemptedIn = new WeakMap<EngineNode, number>();
  // Running resources whose changed configuration goes to their model's `reconfigure` instead of close + build.
  const reconfigureInPlace = new Set<EngineNode>();

  const queue = createOperationQueue<GraphConfig>({
    apply: (config, rev) => runApply(config, rev, false),
    replan: async () => {
      if (current) await runApply(current, revision, true);
    },
    roots: runRoots,
    failed: (thrown) => logger.error(`reconfiguration step failed: ${errorMessage(thrown)}`),
  });

  const lookupRunning = (name: string): Resource | undefined => nodes.get(name)?.live?.resource;
  const check = (m: NonNullable<GraphConfig["maintenance"]>) => checkMaintenance(m, lookupRunning, clock, options.maintenanceReadTimeoutMs);
  const gate = createMaintenanceGate<{ config: GraphConfig; revision: string }>({
    clock,
    logger,
    check,
    recheckMs: options.maintenanceRecheckMs,
    release: (item) => void queue.apply(item.config, item.revision),
  });
  const stopWatchingRegistry = registry.onChange(() => {
    // Before the first configuration there is nothing to re-plan: it will be validated afresh.
    if (current !== undefined) queue.replan();
  });

  function setStatus(node: EngineNode, state: ResourceState, error?: string, waiting = false): void {
    node.waiting = waiting;
    const was = node.status;
    if (was.state === state && was.error === error) return;
    const next: ResourceStatus = { name: node.name, state, revision: was.revision, changedAt: clock.now() };
    if (error !== undefined) next.error = error;
    node.status = next;
    problems.status(node, state, error);
    emit({ kind: "resource", status: next });
  }

  // ---- applying a configuration ----

  async function runApply(config: GraphConfig, rev: string, replan: boolean): Promise<ApplyResult> {
    // Validations are remembered under the registry as it was when they ran: a model that comes
    // while this apply awaits must not be hidden behind a result from before it came.
    const validatedWith = registry.generation;
    const prepared = preparer.prepare(config, nodes, graph, nodeAt);
    // Validations found unchanged stay valid only while the registry is as it was at the last plan.
    const reused =
      replan || registry.generation !== plannedWith ? undefined : reusePlan(nodes, graph, prepared.configs, prepared.paths, prepared.inputs);
    plannedWith = registry.generation;
    const { plan, graph: next } = reused ?? fullPlan(preparer.allInputs(prepared));
    if (!replan) for (const r of plan.rejected) logger.error(`${r.path}: ${r.error}`);
    problems.kept(nodes, plan.kept);
    current = config;

    const inPlace = inPlaceCandidates(plan.modified, nodes, next, registry);
    await closeGroups(inPlace.size ? plan.close.map((g) => g.filter((n) => !inPlace.has(n))).filter((g) => g.length > 0) : plan.close);
    for (const name of inPlace) reconfigureInPlace.add(nodes.get(name)!);
    for (const name of plan.removed) {
      cancelRetry(nodes.get(name)!);
      problems.forget(nodes.get(name)!);
      nodes.delete(name);
      emit({ kind: "resource-removed", name });
    }
    graph = next;
    if (reused) {
      // Same resources at the same places: only the entries' objects and the changed ones' revisions move.
      for (let i = 0; i < next.entries.length; i++) nodeAt[i]!.config = next.entries[i]!.config;
      for (const name of plan.modified) markChanged(nodes.get(name)!, rev);
    } else {
      adoptGraph(plan.modified, rev);
    }
    const aligned = next.entries.length === prepared.configs.length;
    for (let i = 0; i < prepared.inputs.length; i++) {
      const input = prepared.inputs[i];
      if (input) rememberValidation(input, aligned ? nodeAt[i] : undefined, validatedWith);
    }
    for (const held of plan.held) {
      const node = nodes.get(held.name)!;
      cancelRetry(node);
      setStatus(node, held.state, held.error, !node.hold!.root);
    }
    await buildLevels(plan.build);

    if (!replan) {
      revision = rev;
      logger.info(`configuration ${rev} applied`, {
        added: plan.added.length,
        modified: plan.modified.length,
        removed: plan.removed.length,
        closed: plan.close.reduce((n, group) => n + group.length, 0),
        built: plan.build.reduce((n, level) => n + level.length, 0),
      });
      emit({ kind: "applied", revision: rev, plan });
      if (machineState === "INITIALIZING") {
        machineState = "RUNNING";
        emit({ kind: "machine", state: machineState });
      }
    }
    return { outcome: "applied", revision: rev, plan };
  }

  function fullPlan(inputs: PlanResourceInput[]) {
    const running = (name: string, path: string) => preparer.runningInput(nodes.get(name), path);
    return planKeepingRunning(inputs, nodes, running, (list) => {
      const { entries, rejected } = toGraphEntries(list);
      return computePlan(nodes, graph, entries, rejected);
    });
  }

  /** Brings every node in line with the new `graph`, creating the added ones. */
  function adoptGraph(modified: string[], rev: string): void {
    const simple = new Map<string, string | null>();
    const now = clock.now();
    nodeAt = [];
    for (let i = 0; i < graph.entries.length; i++) {
      const e = graph.entries[i]!;
      let node = nodes.get(e.name);
      if (node === undefined) {
        node = createEngineNode(e.name, e.config, e.path, rev, now);
        nodes.set(e.name, node);
        emit({ kind: "resource", status: node.status });
      }
      node.config = e.config;
      node.path = e.path;
      node.index = i;
      node.hold = graph.hold[i];
      nodeAt.push(node);
      simple.set(e.simple, simple.has(e.simple) ? null : e.name);
    }
    simpleNames = simple;
    for (const name of modified) markChanged(nodes.get(name)!, rev);
  }

  function markChanged(node: EngineNode, rev: string): void {
    node.status = { ...node.status, revision: rev };
    node.attempts = 0;
  }

  function rememberValidation(input: PlanResourceInput, at: EngineNode | undefined, generation: number): void {
    const node = at ?? nodes.get(`${input.config.api}/${input.config.name}`);
    if (node === undefined || node.config !== input.config) return;
    node.validated = {
      path: input.path!,
      registryGeneration: generation,
      result: { modelKnown: input.modelKnown !== false, absent: input.absent, requires: input.requires!, optional: input.optional!, issues: input.issues! },
    };
  }

  // ---- retries ----

  const cancelRetry = retries.cancel;
  function scheduleRetry(node: EngineNode): void {
    if (shuttingDown) return cancelRetry(node);
    retries.schedule(node, () => {
      if (nodes.get(node.name) === node) queue.root(node.name, "retry");
    });
  }

  async function runRoots(batch: Map<string, RootKind>): Promise<void> {
    const work = planRootWork(batch, nodes, nodeAt, graph);
    if (!work) return;
    await closeGroups(closeOrder(nodes, work.running));
    await buildLevels(work.levels);
  }

  // ---- building and closing ----

  async function buildLevels(levels: string[][]): Promise<void> {
    const stamp = ++pass;
    const readied: EngineNode[] = [];
    const members: number[] = [];
    for (const level of levels) for (const name of level) members.push(nodes.get(name)!.index);
    await runByDependencies(graph, members, cap, (i) => buildNode(nodeAt[i]!.name, stamp, readied), () => shuttingDown);
    if (shuttingDown) return;
    // Dependents outside this pass that wait for, or hold an older copy of, what just came up.
    for (const node of readied) {
      if (!node.running || nodes.get(node.name) !== node) continue;
      for (let k = graph.dependentStart[node.index]!; k < graph.dependentStart[node.index + 1]!; k++) {
        const dep = nodeAt[graph.dependentFrom[k]!]!;
        if (attemptedIn.get(dep) === stamp || dep.hold) continue;
        if (!dep.running) queue.root(dep.name, "retry");
        else if (isStale(dep, graph, nodes)) queue.root(dep.name, "refresh");
      }
    }
  }

  async function buildNode(name: string, stamp: number, readied: EngineNode[]): Promise<void> {
    const node = nodes.get(name);
    if (!node || shuttingDown) return;
    const inPlace = reconfigureInPlace.delete(node) && node.running;
    if (node.hold || (node.running && !inPlace)) return;
    attemptedIn.set(node, stamp);
    cancelRetry(node);
    const given = gatherDependencies(node, graph, nodes);
    if ("status" in given) {
      if (inPlace) await closeNode(node);
      setStatus(node, "UNCONFIGURED", waitingFor(given.name, describeState(given)), true);
      return;
    }
    const registration = registry.lookup(node.config.api, node.config.model);
    if (inPlace) {
      if (registration?.reconfigure) {
        setStatus(node, "CONFIGURING");
        const outcome = await lifecycle.reconfigure(node, node.live!, registration, given, () => shuttingDown);
        if (outcome.ok && nodes.get(name) === node && node.running) {
          for (const dep of node.builtWith) nodes.get(dep)?.usedBy.delete(name);
          markReady(node, given, readied);
          return;
        }
        if (!outcome.ok) logger.warn(`${name}: ${outcome.error}; building it afresh`);
      }
      await closeNode(node);
      if (shuttingDown || nodes.get(name) !== node) return;
    }
    if (registration === undefined) {
      // The registry announces the model when it comes; the re-plan then builds this resource.
      setStatus(node, "UNCONFIGURED", `no model ${node.config.model} is registered for API ${node.config.api}; waiting for it to be registered`);
      return;
    }
    setStatus(node, "CONFIGURING");
    const outcome = await lifecycle.build(node, registration, given, () => shuttingDown);
    if (!outcome.ok) {
      setStatus(node, "UNHEALTHY", outcome.error);
      scheduleRetry(node);
      return;
    }
    if (shuttingDown || nodes.get(name) !== node) {
      void lifecycle.close(outcome.live, name);
      return;
    }
    node.live = outcome.live;
    node.running = true;
    node.generation++;
    markReady(node, given, readied);
  }

  /** Records what a running instance was given and announces it READY. */
  function markReady(node: EngineNode, given: GivenDependencies, readied: EngineNode[]): void {
    node.builtWith = given.names;
    node.builtGenerations = given.generations;
    for (const dep of given.names) nodes.get(dep)!.usedBy.add(node.name);
    node.attempts = 0;
    setStatus(node, "READY");
    readied.push(node);
  }

  async function closeNode(node: EngineNode): Promise<CloseOutcome | undefined> {
    const live = node.live;
    if (!live) return undefined;
    setStatus(node, "REMOVING");
    const outcome = await lifecycle.close(live, node.name);
    if (node.live === live) {
      for (const dep of node.builtWith) nodes.get(dep)?.usedBy.delete(node.name);
      node.live = undefined;
      node.running = false;
      node.builtWith = [];
      node.builtGenerations = [];
      setStatus(node, "UNCONFIGURED");
    }
    return outcome;
  }

  async function closeGroups(groups: string[][], report?: ShutdownReport): Promise<void> {
    for (const group of groups) {
      await runPool(group, cap, async (name) => {
        const node = nodes.get(name);
        const outcome = node && (await closeNode(node));
        if (!report || !outcome) return;
        if (outcome.kind === "closed") report.closed.push(name);
        else if (outcome.kind === "hung") report.hung.push(name);
        else report.failed.push({ name, error: outcome.error });
      });
    }
  }

  async function closeEverything(): Promise<ShutdownReport> {
    shuttingDown = true;
    gate.stop();
    problems.stop();
    stopWatchingRegistry();
    nodes.forEach(cancelRetry);
    queue.stop();
    if (queue.busy) {
      // Let an operation under way reach its next step, but wait no longer than one close may take.
      await new Promise<void>((resolve) => {
        const timer = clock.setTimeout(resolve, closeTimeoutMs);
        void queue.idle().then(() => {
          clock.clearTimeout(timer);
          resolve();
        });
      });
    }
    const report: ShutdownReport = { closed: [], failed: [], hung: [] };
    const running: string[] = [];
    nodes.forEach((node) => {
      if (node.running) running.push(node.name);
    });
    await closeGroups(closeOrder(nodes, running), report);
    logger.info("resources closed", { closed: report.closed.length, failed: report.failed.length, hung: report.hung.length });
    return report;
  }

  return {
    async apply(config, applyOptions) {
      if (shuttingDown) return { outcome: "closed" };
      const rev = applyOptions?.revision ?? String(++revisionCounter);
      // Start-up is never gated: nothing has been applied yet.
      if (current === undefined) return queue.apply(config, rev);
      const decision = await gate.submit({ config, revision: rev }, config.maintenance ?? undefined);
      if (decision.kind === "allowed") return queue.apply(config, rev);
      if (decision.kind === "superseded") return { outcome: "superseded" };
      emit({ kind: "deferred", reason: decision.reason });
      return { outcome: "deferred", reason: decision.reason };
    },
    status() {
      const resources: ResourceStatus[] = [];
      nodes.forEach((node) => resources.push(node.status));
      return { state: machineState, revision, reconfiguring: queue.busy, deferred: gate.deferred, resources };
    },
    resourceStatus: (name) => nodes.get(name)?.status,
    resource(name) {
      const full = name.indexOf("/") >= 0 ? name : simpleNames.get(name);
      return full ? lookupRunning(full) : undefined;
    },
    checkMaintenance(): Promise<MaintenanceDecision> {
      const maintenance = current?.maintenance;
      return maintenance ? check(maintenance) : Promise.resolve({ allowed: true });
    },
    onEvent: events.on,
    whenIdle: () => queue.idle(),
    close() {
      shutdown ??= closeEverything();
      return shutdown;
    },
  };
}
