// When a failed build is tried again: after the initial delay, doubling with each attempt in a
// row up to the cap. One timer per resource, kept on its node so a change or removal cancels it.
import type { Clock } from "../clock.js";
import type { EngineNode } from "./engine-node.js";

export interface RetryTimers {
  cancel(node: EngineNode): void;
  /** Arms the node's next attempt; `due` runs when it is time. */
  schedule(node: EngineNode, due: () => void): void;
}

export function createRetryTimers(clock: Clock, initialMs: number, maxMs: number): RetryTimers {
  const cancel = (node: EngineNode) => {
    if (node.retryTimer !== undefined) clock.clearTimeout(node.retryTimer);
    node.retryTimer = undefined;
  };
  return {
    cancel,
    schedule(node, due) {
      cancel(node);
      const delay = Math.min(initialMs * Math.pow(2, node.attempts), maxMs);
      if (node.attempts < 30) node.attempts++;
      node.retryTimer = clock.setTimeout(() => {
        node.retryTimer = undefined;
        due();
      }, delay);
    },
  };
}
