// Building and closing one resource, each within its time limit. A build that overruns is
// abandoned (its instance is closed if it ever arrives); a close that overruns is reported and
// skipped; an instance is never closed twice, whoever asks.
import type { Clock } from "../clock.js";
import type { ResourceConfig } from "../config/index.js";
import { type BuildContext, type LoggerLike, type ModelRegistration, type Resource } from "../resource/index.js";
import { errorMessage } from "../errors/index.js";
import { settleWithin } from "./bounded.js";
import type { CloseOutcome, EngineNode, GivenDependencies, Live } from "./engine-node.js";

export type BuildOutcome = { ok: true; live: Live } | { ok: false; error: string };

export type ReconfigureOutcome = { ok: true } | { ok: false; error: string };

export interface ResourceLifecycle {
  build(node: EngineNode, registration: ModelRegistration, given: GivenDependencies, shuttingDown: () => boolean): Promise<BuildOutcome>;
  /** Applies the node's new configuration to its running instance through the model's `reconfigure`. */
  reconfigure(node: EngineNode, live: Live, registration: ModelRegistration, given: GivenDependencies, shuttingDown: () => boolean): Promise<ReconfigureOutcome>;
  close(live: Live, name: string): Promise<CloseOutcome>;
}

export interface ResourceLifecycleOptions {
  clock: Clock;
  logger: LoggerLike;
  buildTimeoutMs: number;
  closeTimeoutMs: number;
  loggerFor?(name: string, config: ResourceConfig): LoggerLike;
}

function isResource(value: unknown): value is Resource {
  return typeof value === "object" && value !== null && typeof (value as Resource).close === "function";
}

function withField(logger: LoggerLike, key: string, value: string): LoggerLike {
  const add = (fields?: Record<string, unknown>) => (fields ? { [key]: value, ...fields } : { [key]: value });
  return {
    debug: (m, f) => logger.debug(m, add(f)),
    info: (m, f) => logger.info(m, add(f)),
    warn: (m, f) => logger.warn(m, add(f)),
    error: (m, f) => logger.error(m, add(f)),
  };
}

export function createResourceLifecycle(options: ResourceLifecycleOptions): ResourceLifecycle {
  const { clock, logger, buildTimeoutMs, closeTimeoutMs } = options;

  function close(live: Live, name: string): Promise<CloseOutcome> {
    if (live.closing) return live.closing;
    live.closing = settleWithin(clock, closeTimeoutMs, () => live.resource.close(), (late) => {
      logger.info(`${name} finished closing after its timeout`, late.ok ? undefined : { error: errorMessage(late.error) });
    }).then((outcome): CloseOutcome => {
      if (outcome.ok) return { kind: "closed" };
      if (outcome.timedOut) {
        logger.error(`closing ${name} did not finish within ${closeTimeoutMs} ms; skipped`);
        return { kind: "hung" };
      }
      const error = errorMessage(outcome.error);
      logger.warn(`closing ${name} failed: ${error}`);
      return { kind: "failed", error };
    });
    return live.closing;
  }

  function contextFor(node: EngineNode, given: GivenDependencies, cancelled: () => boolean): BuildContext {
    const name = node.name;
    let resourceLogger: LoggerLike | undefined;
    return {
      name: node.resourceName,
      config: node.config,
      dependencies: given.view,
      // Made on first use: many models never log while building.
      get logger() {
        return (resourceLogger ??= options.loggerFor ? options.loggerFor(name, node.config) : withField(logger, "resource", name));
      },
      clock,
      cancelled,
    };
  }

  async function build(node: EngineNode, registration: ModelRegistration, given: GivenDependencies, shuttingDown: () => boolean): Promise<BuildOutcome> {
    const name = node.name;
    let timedOut = false;
    const context = contextFor(node, given, () => timedOut || shuttingDown());
    const outcome = await settleWithin(clock, buildTimeoutMs, () => registration.build(context), (late) => {
      if (late.ok && isResource(late.value)) {
        logger.warn(`${name} finished building after its timeout; closing that instance`);
        void close({ resource: late.value }, name);
      }
    });
    if (!outcome.ok) {
      timedOut = outcome.timedOut;
      return { ok: false, error: timedOut ? `building timed out after ${buildTimeoutMs} ms` : `building failed: ${errorMessage(outcome.error)}` };
    }
    if (!isResource(outcome.value)) return { ok: false, error: "building failed: the model returned no resource (an object with close())" };
    return { ok: true, live: { resource: outcome.value } };
  }

  async function reconfigure(
    node: EngineNode,
    live: Live,
    registration: ModelRegistration,
    given: GivenDependencies,
    shuttingDown: () => boolean,
  ): Promise<ReconfigureOutcome> {
    let timedOut = false;
    const context = contextFor(node, given, () => timedOut || shuttingDown());
    const outcome = await settleWithin(clock, buildTimeoutMs, () => registration.reconfigure!(live.resource, context), () => {});
    if (outcome.ok) return { ok: true };
    timedOut = outcome.timedOut;
    return { ok: false, error: timedOut ? `reconfiguring timed out after ${buildTimeoutMs} ms` : `reconfiguring failed: ${errorMessage(outcome.error)}` };
  }

  return { build, reconfigure, close };
}
