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

export function createOperationQueue<C>(handlers: OperationHandlers<C>): OperationQueue<C> {
  let waiting: { config: C; revision: string; resolve(result: ApplyResult): void } | undefined;
  let replanNeeded = false;
  let roots = new Map<string, RootKind>();
  let busy = false;
  let stopped = false;
  let idleWaiters: (() => void)[] = [];

  const hasWork = () => waiting !== undefined || replanNeeded || roots.size > 0;

  function kick(): void {
    if (busy || stopped) return;
    busy = true;
    void pump();
  }

  async function pump(): Promise<void> {
    while (!stopped && hasWork()) {
      try {
        if (waiting) {
          const job = waiting;
          waiting = undefined;
          job.resolve(
            await handlers.apply(job.config, job.revision).catch((thrown: unknown): ApplyResult => {
              handlers.failed(thrown);
              return { outcome: "failed", error: errorMessage(thrown) };
            }),
          );
        } else if (replanNeeded) {
          replanNeeded = false;
          await handlers.replan();
        } else {
          const batch = roots;
          roots = new Map();
          await handlers.roots(batch);
        }
      } catch (thrown) {
        handlers.failed(thrown);
      }
    }
    busy = false;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  return {
    apply(config, revision) {
      if (stopped) return Promise.resolve({ outcome: "closed" });
      waiting?.resolve({ outcome: "superseded" });
      return new Promise((resolve) => {
        waiting = { config, revision, resolve };
        kick();
      });
    },
    replan() {
      if (stopped) return;
      replanNeeded = true;
      kick();
    },
    root(name, kind) {
      if (stopped) return;
      if (roots.get(name) !== "refresh") roots.set(name, kind);
      kick();
    },
    get busy() {
      return busy;
    },
    idle() {
      if (!busy) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    stop() {
      stopped = true;
      waiting?.resolve({ outcome: "closed" });
      waiting = undefined;
      replanNeeded = false;
      roots.clear();
    },
  };
}
