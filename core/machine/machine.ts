// The machine every target runs: a configuration flows one way through it, text -> parse (once)
// -> the platform's screen -> acceptance -> log levels -> graph, and whoever follows it hears
// each step as a ConfigEvent. A load's phases are in load-phases.ts; loads run one at a time.
// Targets supply what only they have: models, modules, the screen, the revision hash, the clock
// and the log sink.
import { createGraphEngine } from "../graph/index.js";
import { createConfigListeners } from "./config-listeners.js";
import { loadOnce, type LoadContext } from "./load-phases.js";
import { createSerialQueue } from "../serial-queue.js";
import type { ConfigInput, LoadResult, Machine, MachineOptions, LoadOptions } from "./machine-types.js";

export function createMachine(options: MachineOptions): Machine {
  const { logEngine, registry } = options;
  const log = logEngine.logger("svc.config");
  const engine = createGraphEngine({
    registry,
    clock: options.clock,
    logger: logEngine.logger("svc.resource_manager"),
    loggerFor: (_name, config) => logEngine.resourceLogger(config.api, config.name),
    buildTimeoutMs: options.buildTimeoutMs,
    buildConcurrency: options.buildConcurrency,
  });
  const context: LoadContext = {
    options,
    log,
    engine,
    modules: options.modules?.(() => engine.whenIdle()),
    state: { running: undefined, refusal: undefined },
    listeners: createConfigListeners(log),
  };
  const { state, listeners, modules } = context;
  // Loads one after another: a quick second save never races the first.
  const queue = createSerialQueue();

  function load(input: ConfigInput, origin = "", loadOptions: LoadOptions = {}): Promise<LoadResult> {
    return queue.run(async () => {
      listeners.emit({ kind: "loading", origin, running: state.running });
      const result = await loadOnce(context, input, origin, loadOptions.revision);
      listeners.emit({ kind: "loaded", origin, running: state.running, result });
      return result;
    });
  }

  return {
    engine,
    registry,
    load,
    current: () => state.running,
    lastRefusal: () => state.refusal,
    moduleStatuses: () => modules?.resourceStatuses() ?? [],
    onConfig: listeners.add,
    async close() {
      // Resources first, dependents before what they use, modular ones included; then the modules.
      const report = await engine.close();
      await modules?.close();
      return report;
    },
  };
}
