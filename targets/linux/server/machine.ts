// The running machine on Linux: the model registry with the built-in models (fake boards on
// simulated boards, the Raspberry Pi and generic Linux boards on the real ones), the graph
// engine, and the configuration it runs. Configuration flows one way through it:
// text -> parse -> acceptance -> log levels -> graph engine. It serves nothing itself; the API
// server reads it.
import { createHash } from "node:crypto";
import {
  acceptConfig,
  createGraphEngine,
  createModelRegistry,
  formatConfigDiff,
  loggingSettingsOf,
  parseMachineConfig,
  type ApplyResult,
  type Clock,
  type ConfigIssue,
  type GraphEngine,
  type LogEngine,
  type Logger,
  type MachineConfig,
  type ModelRegistry,
  type ResourceStatus,
  type ShutdownReport,
} from "../../../core/index.js";
import { createModuleManager, type ModuleManager, type ModuleManagerOptions } from "../modules/index.js";

import { registerLinuxModels } from "./linux-models.js";
import { writtenJson } from "./written-places.js";

export interface MachineOptions {
  logEngine: LogEngine;
  clock: Clock;
  /** -reveal-sensitive-config-diffs */
  revealSecrets?: boolean;
  /** Leaves out entries this machine will not run (e.g. -untrusted-env), with an issue for each. */
  screen?: (config: MachineConfig, written: unknown) => { config: MachineConfig; issues: ConfigIssue[] };
  buildTimeoutMs?: number;
  /** Runs the configuration's modules; without it, module entries are not started. */
  modules?: Omit<ModuleManagerOptions, "registry" | "logEngine" | "settle">;
}

export interface RunningConfig {
  config: MachineConfig;
  issues: ConfigIssue[];
  revision: string;
  origin: string;
}

export type LoadResult =
  | { outcome: "refused"; reason: string; issues: ConfigIssue[] }
  | { outcome: "unchanged"; revision: string }
  | ApplyResult;

export interface Machine {
  readonly engine: GraphEngine;
  readonly registry: ModelRegistry;
  /** Reads a configuration and applies it; resolves when it is applied, deferred or refused. */
  load(source: string | object, origin: string): Promise<LoadResult>;
  current(): RunningConfig | undefined;
  /** Each configured module's state, as GetMachineStatus lists it. */
  moduleStatuses(): ResourceStatus[];
  /** The last configuration that was refused, and why; cleared when one is applied. */
  lastRefusal(): { reason: string; origin: string; issues: ConfigIssue[] } | undefined;
  close(): Promise<ShutdownReport>;
}

export function createMachine(options: MachineOptions): Machine {
  const log = options.logEngine.logger("svc.config");
  const registry = createModelRegistry();
  registerLinuxModels(registry);
  const engine = createGraphEngine({
    registry,
    clock: options.clock,
    logger: options.logEngine.logger("svc.resource_manager"),
    loggerFor: (_name, config) => options.logEngine.resourceLogger(config.api, config.name),
    buildTimeoutMs: options.buildTimeoutMs,
  });
  const modules: ModuleManager | undefined = options.modules
    ? createModuleManager({ ...options.modules, registry, logEngine: options.logEngine, settle: () => engine.whenIdle() })
    : undefined;
  let running: RunningConfig | undefined;
  let refusal: { reason: string; origin: string; issues: ConfigIssue[] } | undefined;

  function reportIssues(issues: readonly ConfigIssue[], origin: string, known: readonly ConfigIssue[]): void {
    const seen = new Set(known.map((i) => `${i.path}\u0000${i.message}`));
    for (const issue of issues) {
      if (seen.has(`${issue.path}\u0000${issue.message}`)) continue;
      const write = issue.severity === "error" ? log.error : log.warn;
      write.call(log, issue.message, { file: origin, path: issue.path });
    }
  }

  async function load(source: string | object, origin: string): Promise<LoadResult> {
    const text = typeof source === "string" ? source : JSON.stringify(source);
    const revision = createHash("sha256").update(text).digest("hex").slice(0, 12);
    if (running && running.revision === revision) return { outcome: "unchanged", revision };

    const parsed = parseMachineConfig(source);
    const screened = parsed.config && options.screen ? options.screen(parsed.config, writtenJson(source)) : undefined;
    const issues = [...parsed.issues, ...(screened?.issues ?? [])];
    const acceptance = acceptConfig({ config: screened?.config ?? parsed.config, issues }, running);
    if (!acceptance.accepted) {
      refusal = { reason: acceptance.reason, origin, issues: acceptance.newErrors };
      reportIssues(acceptance.newErrors, origin, []);
      log.error(
        running ? "configuration refused; the machine keeps running as it was" : "configuration cannot be used",
        { file: origin, reason: acceptance.reason },
      );
      return { outcome: "refused", reason: acceptance.reason, issues: acceptance.newErrors };
    }

    const config = acceptance.config;
    reportIssues(issues, origin, running?.issues ?? []);
    if (running) {
      for (const line of formatConfigDiff(running.config, config, { reveal: options.revealSecrets })) {
        log.info(`config change: ${line}`, { file: origin });
      }
    }
    options.logEngine.configure(loggingSettingsOf(config));
    const previous = running;
    running = { config, issues, revision, origin };
    refusal = undefined;
    // Modules start (and changed ones restart) first, so their models can be validated and built.
    await modules?.prepare(config);
    const result = await engine.apply(config, { revision });
    if (result.outcome === "applied") await modules?.finish(config);
    if (result.outcome === "applied") {
      log.info(previous ? "configuration applied" : "configuration loaded", {
        file: origin,
        revision,
        components: config.components.length,
        services: config.services.length,
        modules: config.modules.length,
      });
    } else if (result.outcome === "deferred") {
      log.info("configuration deferred until the maintenance window allows it", { file: origin, reason: result.reason });
    }
    return result;
  }

  return {
    engine,
    registry,
    load,
    current: () => running,
    lastRefusal: () => refusal,
    moduleStatuses: () => modules?.resourceStatuses() ?? [],
    async close() {
      // Resources first, dependents before what they use, modular ones included; then the modules.
      const report = await engine.close();
      await modules?.close();
      return report;
    },
  };
}
