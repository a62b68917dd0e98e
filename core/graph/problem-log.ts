// What the log says about resources that cannot run. A resource whose build fails, or that is held
// back (its entry refused by its model, a missing or ambiguous dependency, a cycle, a model nobody
// has registered, a dependency that cannot run), is named once with the reason: not again on each
// retry, edit or re-plan while the reason stays the same, again when it changes, and once more
// (info) when the resource runs after all. A failure (UNHEALTHY) is said at once; a wait
// (UNCONFIGURED) only when it outlasts a short grace, since waiting is what a resource normally
// does while its module starts or its dependency builds. A refused edit of a running resource is
// said once while the entry stays refused. A resource joined from another part is left to
// whoever joined it: one line for a remote that drops, not one for each of its resources.
import type { Clock } from "../clock.js";
import type { LoggerLike } from "../resource/index.js";
import type { EngineNode } from "./engine-node.js";
import type { KeptResource } from "./plan.js";
import type { ResourceState } from "./resource-status.js";

/** How long a resource may wait (UNCONFIGURED with a reason) before the wait is worth a line. */
export const WAIT_GRACE_MS = 5_000;

export interface ProblemLog {
  /** A resource's new state and error, as set on it. */
  status(node: EngineNode, state: ResourceState, error: string | undefined): void;
  /** The running resources an apply kept on their previous entry; every other refusal is over. */
  kept(nodes: ReadonlyMap<string, EngineNode>, kept: readonly KeptResource[]): void;
  /** The resource is gone: nothing more is said about it. */
  forget(node: EngineNode): void;
  stop(): void;
}

/** What the problem log keeps. */
interface ProblemState {
  readonly logger: LoggerLike;
  readonly clock: Clock;
  // Nodes whose refused entry has been said, and what was said.
  readonly refused: Map<EngineNode, string>;
  readonly graceTimers: Map<EngineNode, unknown>;
  stopped: boolean;
}

// The methods are thin: on a microcontroller each closure carries a copy of its code, so the
// work is in the module functions below, made once.
export function createProblemLog(logger: LoggerLike, clock: Clock): ProblemLog {
  const p: ProblemState = { logger, clock, refused: new Map(), graceTimers: new Map(), stopped: false };
  return {
    status: (node, state, error) => status(p, node, state, error),
    kept: (nodes, kept) => keptEntries(p, nodes, kept),
    forget(node) {
      cancelGrace(p, node);
      p.refused.delete(node);
    },
    stop() {
      p.stopped = true;
      p.graceTimers.forEach((timer) => clock.clearTimeout(timer));
      p.graceTimers.clear();
    },
  };
}

function cancelGrace(p: ProblemState, node: EngineNode): void {
  const timer = p.graceTimers.get(node);
  if (timer === undefined) return;
  p.clock.clearTimeout(timer);
  p.graceTimers.delete(node);
}

function say(p: ProblemState, node: EngineNode, state: ResourceState, error: string): void {
  const said = `${state}\u0000${error}`;
  if (node.reported === said) return;
  node.reported = said;
  const write = state === "UNHEALTHY" ? p.logger.error : p.logger.warn;
  write.call(p.logger, `${node.name}: ${error}`, { resource: node.name, state });
}

function status(p: ProblemState, node: EngineNode, state: ResourceState, error: string | undefined): void {
  cancelGrace(p, node);
  if (p.stopped || node.joined) return;
  if (state === "READY") {
    if (node.reported !== undefined) p.logger.info(`${node.name} is running`, { resource: node.name });
    node.reported = undefined;
    return;
  }
  if (error === undefined) return;
  if (state === "UNHEALTHY") say(p, node, state, error);
  else if (state === "UNCONFIGURED" && node.reported !== `${state}\u0000${error}`) {
    p.graceTimers.set(
      node,
      p.clock.setTimeout(() => {
        p.graceTimers.delete(node);
        say(p, node, state, error);
      }, WAIT_GRACE_MS),
    );
  }
}

function keptEntries(p: ProblemState, nodes: ReadonlyMap<string, EngineNode>, kept: readonly KeptResource[]): void {
  const { refused } = p;
  const now = new Set<EngineNode>();
  for (const k of kept) {
    const node = nodes.get(k.name);
    if (!node) continue;
    now.add(node);
    if (refused.get(node) === k.error) continue;
    refused.set(node, k.error);
    p.logger.error(`${k.name}: the changed entry is refused and the resource keeps running as configured before: ${k.error}`, {
      resource: k.name,
      path: k.path,
    });
  }
  refused.forEach((_, node) => {
    if (!now.has(node)) refused.delete(node);
  });
}
