// The log engine: named loggers, their levels under the current configuration, de-duplication,
// and the sink entries go to. Each logger holds its threshold as a number worked out when a
// configuration is applied, so a call below the threshold costs one comparison. Applying a new
// configuration updates the loggers already handed out; nothing is recreated or restarted.
import type { Clock } from "../clock.js";
import type { ConfigIssue } from "../config/index.js";
import { createDeduplicator } from "./deduplicator.js";
import { compileLevelPlan, type LevelPlan, type LoggingSettings } from "./level-plan.js";
import { DEBUG, INFO, LOG_LEVELS, levelRank, type LogLevel } from "./levels.js";
import { NO_FIELDS, type LogEntry, type LogFields, type LogSink } from "./log-entry.js";
import { maskSecretFields } from "./secrets.js";
import { moduleLoggerName, moduleStderrLoggerName, resourceLoggerName } from "./logger-names.js";
import { createNodeLogger, type Logger, type LoggerNode as Node } from "./node-logger.js";

export type { Logger } from "./node-logger.js";

export interface LoggerOptions {
  /** false for output that must never be hidden, such as a module's stderr. Default true. */
  deduplicate?: boolean;
}

export interface LogEngine {
  /** The logger named `name` (the same object on every call with the same name and options). */
  logger(name: string, options?: LoggerOptions): Logger;
  /** `rdk.resource_manager.<api>/<name>`. */
  resourceLogger(api: string, name: string): Logger;
  /** The logger a module's own log lines are written under: the module's name. */
  moduleLogger(moduleName: string): Logger;
  /** `<module>.stderr`, never de-duplicated: crash output is never hidden. */
  moduleStderrLogger(moduleName: string): Logger;
  /** Applies a new logging configuration to every logger, live; returns what was wrong in it. */
  configure(settings: LoggingSettings): readonly ConfigIssue[];
  /** The level to start the module process with (its `log_level`), under the current configuration. */
  moduleLogLevel(moduleName: string): LogLevel;
  /** The level a top-level logger of that name gets under the current configuration. */
  levelOf(loggerName: string): LogLevel;
  /** Writes the summaries of open de-duplication windows and stops the engine's timers. */
  close(): void;
}

export interface LogEngineOptions {
  clock: Clock;
  sink: LogSink;
  /** The -debug command-line flag: debug everywhere, whatever the configuration says. */
  debug?: boolean;
  /** The configuration to start with; the defaults (everything at info) when absent. */
  settings?: LoggingSettings;
}

// Keyed apart from `child("stderr")`, which would be de-duplicated like its parent.
const STDERR_CHILD = "\u0000stderr";

/** What the engine keeps: its parts, the level plan in force and every logger node made. */
interface EngineState {
  readonly clock: Clock;
  readonly sink: LogSink;
  readonly forceDebug: boolean;
  plan: LevelPlan;
  // Creation order puts every parent before its children, which is the order levels are updated in.
  readonly nodes: Node[];
  readonly topLevel: Map<string, Node>;
  readonly dedup: ReturnType<typeof createDeduplicator>;
  /** `emit` for this state, as every logger calls it. */
  readonly emit: (node: Node, rank: number, message: string, fields: LogFields | undefined) => void;
}

// The methods are thin: on a microcontroller each closure carries a copy of its code, so the
// work is in the module functions below, made once.
export function createLogEngine(options: LogEngineOptions): LogEngine {
  const { clock, sink } = options;
  const forceDebug = options.debug === true;
  const state: EngineState = {
    clock,
    sink,
    forceDebug,
    plan: compileLevelPlan(options.settings ?? {}, forceDebug),
    nodes: [],
    topLevel: new Map(),
    dedup: createDeduplicator({ clock, write: (entry) => safeWrite(sink, entry) }),
    emit: (node, rank, message, fields) => emit(state, node, rank, message, fields),
  };
  const logger = (name: string, loggerOptions?: LoggerOptions): Logger => topNode(state, name, loggerOptions?.deduplicate !== false).logger;

  return {
    logger,
    resourceLogger: (api, name) => logger(resourceLoggerName(api, name)),
    moduleLogger: (moduleName) => logger(moduleLoggerName(moduleName)),
    moduleStderrLogger: (moduleName) => moduleStderrLogger(state, moduleName),
    configure(settings) {
      state.plan = compileLevelPlan(settings, forceDebug);
      for (const node of state.nodes) apply(state, node);
      return state.plan.issues;
    },
    moduleLogLevel: (moduleName) => state.plan.moduleLevel(moduleName),
    levelOf: (loggerName) => state.plan.loggerLevel(loggerName).level,
    close: () => state.dedup.close(),
  };
}

function safeWrite(sink: LogSink, entry: LogEntry): void {
  // A failing sink must not take down the code that logged.
  try {
    sink.write(entry);
  } catch {
    /* nothing sensible left to report it to */
  }
}

function apply(state: EngineState, node: Node): void {
  node.choice = state.plan.loggerLevel(node.name, node.parent?.choice);
  node.threshold = levelRank(node.choice.level);
  node.dedupOn = state.plan.deduplicate && node.deduplicate && node.threshold > DEBUG;
}

function emit(state: EngineState, node: Node, rank: number, message: string, fields: LogFields | undefined): void {
  const entry: LogEntry = {
    time: state.clock.now(),
    level: LOG_LEVELS[rank]!,
    logger: node.name,
    message,
    fields: fields === undefined ? NO_FIELDS : maskSecretFields(fields),
  };
  if (node.dedupOn && !state.dedup.admit(entry)) return;
  safeWrite(state.sink, entry);
}

function makeNode(state: EngineState, name: string, parent: Node | undefined, deduplicate: boolean): Node {
  const node: Node = {
    name,
    parent,
    deduplicate,
    choice: { level: "info", source: "default" },
    threshold: INFO,
    dedupOn: false,
    children: new Map(),
    logger: undefined as unknown as Logger,
  };
  node.logger = createNodeLogger(node, state.emit, (suffix) => childOf(state, node, suffix));
  apply(state, node);
  state.nodes.push(node);
  return node;
}

function childOf(state: EngineState, node: Node, suffix: string): Logger {
  let child = node.children.get(suffix);
  if (child === undefined) {
    child = makeNode(state, `${node.name}.${suffix}`, node, node.deduplicate);
    node.children.set(suffix, child);
  }
  return child.logger;
}

function topNode(state: EngineState, name: string, deduplicate: boolean): Node {
  const key = deduplicate ? name : `${name}\u0000raw`;
  let node = state.topLevel.get(key);
  if (node === undefined) {
    node = makeNode(state, name, undefined, deduplicate);
    state.topLevel.set(key, node);
  }
  return node;
}

function moduleStderrLogger(state: EngineState, moduleName: string): Logger {
  // Made under the module's logger so that the module's own log_level reaches it too.
  const moduleNode = topNode(state, moduleLoggerName(moduleName), true);
  let stderr = moduleNode.children.get(STDERR_CHILD);
  if (stderr === undefined) {
    stderr = makeNode(state, moduleStderrLoggerName(moduleName), moduleNode, false);
    moduleNode.children.set(STDERR_CHILD, stderr);
  }
  return stderr.logger;
}
