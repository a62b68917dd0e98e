// Building and closing one resource, each within its time limit. A build that overruns is
// abandoned (its instance is closed if it ever arrives); a close that overruns is reported and
// skipped; an instance is never closed twice, whoever asks.
import type { Clock } from "../clock.js";
import type { ResourceConfig } from "../config/index.js";
import { type BuildContext, type LoggerLike, type ModelRegistration, type Resource, type ResourceDependencies, type ResourceName } from "../resource/index.js";
import { errorMessage } from "../errors/index.js";
import { settleWithin, type Settled } from "./bounded.js";
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

// The methods are thin: on a microcontroller each closure carries a copy of its code, so the
// work is in the module functions below, made once.
export function createResourceLifecycle(options: ResourceLifecycleOptions): ResourceLifecycle {
  return {
    build: (node, registration, given, shuttingDown) => build(options, node, registration, given, shuttingDown),
    reconfigure: (node, live, registration, given, shuttingDown) => reconfigure(options, node, live, registration, given, shuttingDown),
    close: (live, name) => close(options, live, name),
  };
}

function close(options: ResourceLifecycleOptions, live: Live, name: string): Promise<CloseOutcome> {
  const { clock, logger, closeTimeoutMs } = options;
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

function contextFor(options: ResourceLifecycleOptions, node: EngineNode, given: GivenDependencies, cancelled: () => boolean): BuildContext {
  return new BuildCall(options, node, given.view, cancelled);
}

/**
 * What a model's build (or reconfigure) is given. A class, so every build shares its methods and
 * getter: on a microcontroller each closure made per build carries a copy of its code.
 */
class BuildCall implements BuildContext {
  readonly name: ResourceName;
  readonly config: ResourceConfig;
  readonly clock: Clock;
  private resourceLogger: LoggerLike | undefined;

  constructor(
    private readonly options: ResourceLifecycleOptions,
    private readonly node: EngineNode,
    readonly dependencies: ResourceDependencies,
    private readonly isCancelled: () => boolean,
  ) {
    this.name = node.resourceName;
    this.config = node.config;
    this.clock = options.clock;
  }

  // Made on first use: many models never log while building.
  get logger(): LoggerLike {
    const { options, node } = this;
    return (this.resourceLogger ??= options.loggerFor ? options.loggerFor(node.name, node.config) : withField(options.logger, "resource", node.name));
  }

  cancelled(): boolean {
    return this.isCancelled();
  }
}

async function build(
  options: ResourceLifecycleOptions,
  node: EngineNode,
  registration: ModelRegistration,
  given: GivenDependencies,
  shuttingDown: () => boolean,
): Promise<BuildOutcome> {
  const { clock, buildTimeoutMs } = options;
  const name = node.name;
  let timedOut = false;
  const context = contextFor(options, node, given, () => timedOut || shuttingDown());
  const outcome = await settleWithin(clock, buildTimeoutMs, () => registration.build(context), (late) => closeLate(options, late, name));
  if (!outcome.ok) {
    timedOut = outcome.timedOut;
    return { ok: false, error: timedOut ? `building timed out after ${buildTimeoutMs} ms` : `building failed: ${errorMessage(outcome.error)}` };
  }
  if (!isResource(outcome.value)) return { ok: false, error: "building failed: the model returned no resource (an object with close())" };
  return { ok: true, live: { resource: outcome.value } };
}

/** What a build delivers after its timeout is closed. */
function closeLate(options: ResourceLifecycleOptions, late: Settled<unknown>, name: string): void {
  if (late.ok && isResource(late.value)) {
    options.logger.warn(`${name} finished building after its timeout; closing that instance`);
    void close(options, { resource: late.value }, name);
  }
}

async function reconfigure(
  options: ResourceLifecycleOptions,
  node: EngineNode,
  live: Live,
  registration: ModelRegistration,
  given: GivenDependencies,
  shuttingDown: () => boolean,
): Promise<ReconfigureOutcome> {
  const { clock, buildTimeoutMs } = options;
  let timedOut = false;
  const context = contextFor(options, node, given, () => timedOut || shuttingDown());
  const outcome = await settleWithin(clock, buildTimeoutMs, () => registration.reconfigure!(live.resource, context), () => {});
  if (outcome.ok) return { ok: true };
  timedOut = outcome.timedOut;
  return { ok: false, error: timedOut ? `reconfiguring timed out after ${buildTimeoutMs} ms` : `reconfiguring failed: ${errorMessage(outcome.error)}` };
}
