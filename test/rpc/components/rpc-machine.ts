// One helper that builds a machine for API handler tests: a real registry with every built-in
// model on a simulated board, the graph engine running a configuration, the resource lookup over
// it, and a CallInfo whose cancellation and driven actuators the test controls and sees.
import type { ResourceConfig } from "../../../core/config/index.js";
import {
  createGraphEngine,
  createManualClock,
  createModelRegistry,
  createResourceLookup,
  registerBuiltinModels,
  SvcError,
  type CallInfo,
  type Clock,
  type GraphEngine,
  type ResourceLookup,
} from "../../../core/index.js";
import { createSimBoard, type SimBoard, type SimBoardDescription } from "../../../hal/sim/index.js";

export interface RpcMachine {
  clock: Clock;
  sim: SimBoard;
  engine: GraphEngine;
  lookup: ResourceLookup;
  close(): Promise<void>;
}

const apiOf = (kind: string) => (kind === "generic_service" ? "rdk:service:generic" : `rdk:component:${kind}`);

/** A configuration entry: `entry("motor", "m1", { max_rpm: 60 })`, fake model unless given. */
export function entry(kind: string, name: string, attributes: Record<string, unknown> = {}, model = "rdk:builtin:fake"): ResourceConfig {
  return { name, api: apiOf(kind), model, attributes, depends_on: [] };
}

export async function createRpcMachine(
  components: ResourceConfig[],
  options: { clock?: Clock; services?: ResourceConfig[]; board?: SimBoardDescription } = {},
): Promise<RpcMachine> {
  const clock = options.clock ?? createManualClock(1_000);
  const sim = createSimBoard(options.board);
  const registry = createModelRegistry();
  registerBuiltinModels(registry, { ioForBoard: () => sim.io });
  const engine = createGraphEngine({ registry, clock });
  const result = await engine.apply({ components, services: options.services ?? [] });
  if (result.outcome !== "applied") throw new Error(`configuration not applied: ${JSON.stringify(result)}`);
  return {
    clock,
    sim,
    engine,
    lookup: createResourceLookup(engine),
    close: async () => void (await engine.close()),
  };
}

export interface TestCall extends CallInfo {
  /** Cancels the call as a client or CancelOperation would. */
  cancel(): void;
  readonly driven: string[];
}

export function testCall(method = "/test/Call", sessionId = "session-1"): TestCall {
  let cancelled = false;
  const callbacks = new Set<() => void>();
  const driven: string[] = [];
  return {
    method,
    sessionId,
    driven,
    cancelled: () => cancelled,
    onCancel(fn) {
      if (cancelled) {
        fn();
        return () => {};
      }
      callbacks.add(fn);
      return () => void callbacks.delete(fn);
    },
    drove(_resource, name) {
      driven.push(name);
    },
    cancel() {
      cancelled = true;
      const fns = Array.from(callbacks);
      callbacks.clear();
      for (const fn of fns) fn();
    },
  };
}

/** What a handler threw as a transport sends it (through SvcError.from), or the string "resolved". */
export async function failure(promise: Promise<unknown>): Promise<{ code: number; message: string } | "resolved"> {
  try {
    await promise;
    return "resolved";
  } catch (thrown) {
    const e = SvcError.from(thrown);
    return { code: e.code, message: e.message };
  }
}

/** Lets pending promise callbacks run. */
export const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
