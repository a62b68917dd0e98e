// The logging part of a machine configuration, compiled once per configuration into a plan that
// answers "which level does this logger get" and "which level does this module run at".
//
// Precedence, strongest first: debug mode (the -debug flag or `"debug": true`); a resource's
// `log_configuration.level` or a module's `log_level`; the last matching `log` rule (rules name
// loggers, so one can single out a resource); the resource's `global_log_configuration` entry
// (one naming its model before one naming only its API; the last of equals); "info".
import type { ConfigIssue } from "../config/index.js";
import { DEFAULT_LOG_LEVEL, levelProblem, parseLogLevel, type LogLevel } from "./levels.js";
import { resourceLoggerName, moduleLoggerName } from "./logger-names.js";
import { compileLogPattern, logPatternProblem } from "../config/index.js";

/** Plain inputs, shaped like the fields of the parsed machine configuration. */
export interface LoggingSettings {
  /** The `log` array; levels are read case-insensitively. */
  rules?: ReadonlyArray<{ pattern: string; level: string }>;
  /** `"debug": true` in the configuration. */
  debug?: boolean;
  /** `disable_log_deduplication`. */
  disableDeduplication?: boolean;
  /** Components and services; only `api`, `name`, `model` and `log_configuration` are read. */
  resources?: ReadonlyArray<{ api: string; name: string; model?: string; log_configuration?: { level: string } }>;
  /** `global_log_configuration`: levels for every resource of an API, or of one model of it. */
  globalLevels?: ReadonlyArray<{ api: string; model?: string; level: string }>;
  /** Module entries; only `name` and `log_level` ("" for none) are read. */
  modules?: ReadonlyArray<{ name: string; log_level?: string }>;
}

/** Where a logger's level came from; a resource's own level is handed down to its sub-loggers. */
export type LevelSource = "debug" | "own" | "rule" | "kind" | "default";

export interface LevelChoice {
  level: LogLevel;
  source: LevelSource;
}

export interface LevelPlan {
  readonly debug: boolean;
  readonly deduplicate: boolean;
  /** Problems found while compiling; the offending rule or level is left out, never fatal. */
  readonly issues: readonly ConfigIssue[];
  /** The level of the logger `name`; `parent` is the choice made for the logger it was made from. */
  loggerLevel(name: string, parent?: LevelChoice): LevelChoice;
  /** The level a module process is started with. */
  moduleLevel(moduleName: string): LogLevel;
}

interface CompiledRule {
  matches: (name: string) => boolean;
  level: LogLevel;
}

/** Compiles settings into a plan; `forceDebug` is the -debug command-line flag. */
export function compileLevelPlan(settings: LoggingSettings, forceDebug = false): LevelPlan {
  const issues: ConfigIssue[] = [];
  const rules: CompiledRule[] = [];
  const ruleList = settings.rules ?? [];
  for (let i = 0; i < ruleList.length; i++) {
    const rule = ruleList[i];
    const patternProblem = typeof rule?.pattern === "string" ? logPatternProblem(rule.pattern) : "must be a string";
    const level = parseLogLevel(rule?.level);
    if (patternProblem !== undefined) issues.push(issue(`log[${i}].pattern`, patternProblem));
    if (level === undefined) issues.push(issue(`log[${i}].level`, levelProblem(rule?.level)));
    if (patternProblem === undefined && level !== undefined) rules.push({ matches: compileLogPattern(rule!.pattern), level });
  }

  // A logger's own level, by logger name: resources' log_configuration and modules' log_level.
  const own = new Map<string, LogLevel>();
  for (const resource of settings.resources ?? []) {
    const text = resource.log_configuration?.level;
    if (text === undefined || text === "") continue;
    const loggerName = resourceLoggerName(resource.api, resource.name);
    const level = parseLogLevel(text);
    if (level === undefined) issues.push(issue(`${resource.api}/${resource.name}.log_configuration.level`, levelProblem(text)));
    else own.set(loggerName, level);
  }
  const kind = kindLevels(settings, issues, own);
  const moduleOwn = new Map<string, LogLevel>();
  const modules = settings.modules ?? [];
  for (let i = 0; i < modules.length; i++) {
    const module = modules[i]!;
    const text = module.log_level;
    if (text === undefined || text === "") continue;
    const level = parseLogLevel(text);
    if (level === undefined) issues.push(issue(`modules[${i}].log_level`, levelProblem(text)));
    else {
      moduleOwn.set(module.name, level);
      own.set(moduleLoggerName(module.name), level);
    }
  }
  return new CompiledPlan(forceDebug || settings.debug === true, settings.disableDeduplication !== true, issues, rules, own, kind, moduleOwn);
}

/**
 * A compiled plan. A class, so the plans a machine compiles on every configuration share their
 * methods: on a microcontroller each closure made per plan carries a copy of its code.
 */
class CompiledPlan implements LevelPlan {
  constructor(
    readonly debug: boolean,
    readonly deduplicate: boolean,
    readonly issues: readonly ConfigIssue[],
    private readonly rules: readonly CompiledRule[],
    private readonly own: ReadonlyMap<string, LogLevel>,
    private readonly kind: ReadonlyMap<string, LogLevel>,
    private readonly moduleOwn: ReadonlyMap<string, LogLevel>,
  ) {}

  private lastMatchingRule(name: string): CompiledRule | undefined {
    const rules = this.rules;
    for (let i = rules.length - 1; i >= 0; i--) if (rules[i]!.matches(name)) return rules[i];
    return undefined;
  }

  loggerLevel(name: string, parent?: LevelChoice): LevelChoice {
    if (this.debug) return { level: "debug", source: "debug" };
    const ownLevel = this.own.get(name);
    if (ownLevel !== undefined) return { level: ownLevel, source: "own" };
    if (parent?.source === "own") return parent;
    const rule = this.lastMatchingRule(name);
    if (rule !== undefined) return { level: rule.level, source: "rule" };
    const kindLevel = this.kind.get(name);
    if (kindLevel !== undefined) return { level: kindLevel, source: "kind" };
    if (parent?.source === "kind") return parent;
    return { level: DEFAULT_LOG_LEVEL, source: "default" };
  }

  moduleLevel(moduleName: string): LogLevel {
    if (this.debug) return "debug";
    const ownLevel = this.moduleOwn.get(moduleName);
    if (ownLevel !== undefined) return ownLevel;
    // Only debug is handed to a module through the rules: it is how one asks a module for detail.
    if (this.lastMatchingRule(moduleName)?.level === "debug") return "debug";
    return DEFAULT_LOG_LEVEL;
  }
}

// The level `global_log_configuration` gives each resource without a level of its own, by logger name.
function kindLevels(settings: LoggingSettings, issues: ConfigIssue[], own: ReadonlyMap<string, LogLevel>): Map<string, LogLevel> {
  const entries: Array<{ api: string; model?: string; level: LogLevel }> = [];
  (settings.globalLevels ?? []).forEach((entry, i) => {
    const level = parseLogLevel(entry.level);
    if (level === undefined) issues.push(issue(`global_log_configuration[${i}].level`, levelProblem(entry.level)));
    else entries.push({ api: entry.api, model: entry.model, level });
  });
  const levels = new Map<string, LogLevel>();
  if (entries.length === 0) return levels;
  for (const resource of settings.resources ?? []) {
    const loggerName = resourceLoggerName(resource.api, resource.name);
    if (own.has(loggerName)) continue;
    let chosen: { model?: string; level: LogLevel } | undefined;
    for (const entry of entries) {
      if (entry.api !== resource.api || (entry.model !== undefined && entry.model !== resource.model)) continue;
      // One naming the model outranks one naming the API only, whatever their order.
      if (chosen === undefined || entry.model !== undefined || chosen.model === undefined) chosen = entry;
    }
    if (chosen !== undefined) levels.set(loggerName, chosen.level);
  }
  return levels;
}

function issue(path: string, message: string): ConfigIssue {
  return { path, message, severity: "error" };
}
