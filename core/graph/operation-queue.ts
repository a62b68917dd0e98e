// The engine's operations, one at a time: a configuration to apply (only the newest waiting one
// counts), a re-plan after the model registry changed, and retries or refreshes of single
// resources, in that priority. Running them one at a time means no two of them ever touch the
// same resource at once.
import { errorMessage } from "../errors/index.js";
import type { ApplyResult } from "./engine-types.js";

export type RootKind = "retry" | "refresh";

export interface OperationQueue<C> {
  /** Queues a configuration; one still waiting is superseded. Resolves when it has been applied. */
  apply(config: C, revision: string): Promise<ApplyResult>;
  replan(): void;
  /** Queues a resource to retry (it is not running) or refresh (it holds an outdated dependency). */
  root(name: string, kind: RootKind): void;
  readonly busy: boolean;
  /** Resolves when nothing is under way or waiting. */
  idle(): Promise<void>;
  /** Takes no more work; a configuration still waiting resolves as "closed". */
  stop(): void;
}

export interface OperationHandlers<C> {
  apply(config: C, revision: string): Promise<ApplyResult>;
  replan(): Promise<void>;
  roots(batch: Map<string, RootKind>): Promise<void>;
  /** A step threw: the queue carries on with the next one. */
  failed(thrown: unknown): void;
}

/** What the queue holds: the operation waiting of each kind, and whether one runs. */
interface QueueState<C> {
  readonly handlers: OperationHandlers<C>;
  waiting: { config: C; revision: string; resolve(result: ApplyResult): void } | undefined;
  replanNeeded: boolean;
  roots: Map<string, RootKind>;
  busy: boolean;
  stopped: boolean;
  idleWaiters: (() => void)[];
}

// The methods are thin: on a microcontroller each closure carries a copy of its code, so the
// work is in the module functions below, made once.
export function createOperationQueue<C>(handlers: OperationHandlers<C>): OperationQueue<C> {
  const q: QueueState<C> = { handlers, waiting: undefined, replanNeeded: false, roots: new Map(), busy: false, stopped: false, idleWaiters: [] };
  return {
    apply: (config, revision) => apply(q, config, revision),
    replan() {
      if (q.stopped) return;
      q.replanNeeded = true;
      kick(q);
    },
    root(name, kind) {
      if (q.stopped) return;
      if (q.roots.get(name) !== "refresh") q.roots.set(name, kind);
      kick(q);
    },
    get busy() {
      return q.busy;
    },
    idle() {
      if (!q.busy) return Promise.resolve();
      return new Promise((resolve) => q.idleWaiters.push(resolve));
    },
    stop: () => stop(q),
  };
}

const hasWork = <C>(q: QueueState<C>) => q.waiting !== undefined || q.replanNeeded || q.roots.size > 0;

function kick<C>(q: QueueState<C>): void {
  if (q.busy || q.stopped) return;
  q.busy = true;
  void pump(q);
}

async function pump<C>(q: QueueState<C>): Promise<void> {
  const { handlers } = q;
  while (!q.stopped && hasWork(q)) {
    try {
      if (q.waiting) {
        const job = q.waiting;
        q.waiting = undefined;
        job.resolve(
          await handlers.apply(job.config, job.revision).catch((thrown: unknown): ApplyResult => {
            handlers.failed(thrown);
            return { outcome: "failed", error: errorMessage(thrown) };
          }),
        );
      } else if (q.replanNeeded) {
        q.replanNeeded = false;
        await handlers.replan();
      } else {
        const batch = q.roots;
        q.roots = new Map();
        await handlers.roots(batch);
      }
    } catch (thrown) {
      handlers.failed(thrown);
    }
  }
  q.busy = false;
  const waiters = q.idleWaiters;
  q.idleWaiters = [];
  for (const resolve of waiters) resolve();
}

function apply<C>(q: QueueState<C>, config: C, revision: string): Promise<ApplyResult> {
  if (q.stopped) return Promise.resolve({ outcome: "closed" });
  q.waiting?.resolve({ outcome: "superseded" });
  return new Promise((resolve) => {
    q.waiting = { config, revision, resolve };
    kick(q);
  });
}

function stop<C>(q: QueueState<C>): void {
  q.stopped = true;
  q.waiting?.resolve({ outcome: "closed" });
  q.waiting = undefined;
  q.replanNeeded = false;
  q.roots.clear();
}
