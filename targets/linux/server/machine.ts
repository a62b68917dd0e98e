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

type Judged =
  | { accepted: false; reason: string; issues: ConfigIssue[] }
  | { accepted: true; next: RunningConfig; changes: string[] };

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

  /** Everything a load decides before it changes anything; it may throw, which refuses the load. */
  function judge(source: string | object, revision: string, origin: string): Judged {
    const parsed = parseMachineConfig(source);
    const screened = parsed.config && options.screen ? options.screen(parsed.config, writtenJson(source)) : undefined;
    const issues = [...parsed.issues, ...(screened?.issues ?? [])];
    const acceptance = acceptConfig({ config: screened?.config ?? parsed.config, issues }, running);
    if (!acceptance.accepted) return { accepted: false, reason: acceptance.reason, issues: acceptance.newErrors };
    const config = acceptance.config;
    const changes = running ? formatConfigDiff(running.config, config, { reveal: options.revealSecrets }) : [];
    return { accepted: true, next: { config, issues, revision, origin }, changes };
  }

  function refuse(reason: string, origin: string, issues: ConfigIssue[]): LoadResult {
    refusal = { reason, origin, issues };
    reportIssues(issues, origin, []);
    log.error(
      running ? "configuration refused; the machine keeps running as it was" : "configuration cannot be used",
      { file: origin, reason },
    );
    return { outcome: "refused", reason, issues };
  }

  async function run(config: MachineConfig, revision: string, origin: string, previous: RunningConfig | undefined): Promise<LoadResult> {
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

  // Any exception ends this load only: before the new configuration is taken it is a refusal;
  // after, the running configuration goes back to what it was, so the next load starts clean.
  async function load(source: string | object, origin: string): Promise<LoadResult> {
    const revision = revisionOf(source);
    if (running && running.revision === revision) return { outcome: "unchanged", revision };

    let judged: Judged;
    try {
      // Data that cannot be written as JSON has no revision; parsing refuses it in its own words.
      judged = judge(source, revision ?? "", origin);
    } catch (thrown) {
      return refuse(`cannot be applied: ${String(thrown)}`, origin, []);
    }
    if (!judged.accepted) return refuse(judged.reason, origin, judged.issues);

    const { config, issues } = judged.next;
    reportIssues(issues, origin, running?.issues ?? []);
    for (const line of judged.changes) log.info(`config change: ${line}`, { file: origin });
    const previous = running;
    running = judged.next;
    refusal = undefined;
    try {
      options.logEngine.configure(loggingSettingsOf(config));
      return await run(config, judged.next.revision, origin, previous);
    } catch (thrown) {
      running = previous;
      if (previous) options.logEngine.configure(loggingSettingsOf(previous.config));
      const error = String(thrown);
      log.error("applying the configuration failed; the machine keeps running as it was", { file: origin, error });
      return { outcome: "failed", error };
    }
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

function revisionOf(source: string | object): string | undefined {
  let text: string | undefined;
  try {
    text = typeof source === "string" ? source : JSON.stringify(source);
  } catch {
    return undefined;
  }
  return text === undefined ? undefined : createHash("sha256").update(text).digest("hex").slice(0, 12);
}
