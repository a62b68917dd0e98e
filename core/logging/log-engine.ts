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

export function createLogEngine(options: LogEngineOptions): LogEngine {
  const { clock, sink } = options;
  const forceDebug = options.debug === true;
  let plan: LevelPlan = compileLevelPlan(options.settings ?? {}, forceDebug);
  // Creation order puts every parent before its children, which is the order levels are updated in.
  const nodes: Node[] = [];
  const topLevel = new Map<string, Node>();

  function safeWrite(entry: LogEntry): void {
    // A failing sink must not take down the code that logged.
    try {
      sink.write(entry);
    } catch {
      /* nothing sensible left to report it to */
    }
  }
  const dedup = createDeduplicator({ clock, write: safeWrite });

  function apply(node: Node): void {
    node.choice = plan.loggerLevel(node.name, node.parent?.choice);
    node.threshold = levelRank(node.choice.level);
    node.dedupOn = plan.deduplicate && node.deduplicate && node.threshold > DEBUG;
  }

  function emit(node: Node, rank: number, message: string, fields: LogFields | undefined): void {
    const entry: LogEntry = {
      time: clock.now(),
      level: LOG_LEVELS[rank]!,
      logger: node.name,
      message,
      fields: fields === undefined ? NO_FIELDS : maskSecretFields(fields),
    };
    if (node.dedupOn && !dedup.admit(entry)) return;
    safeWrite(entry);
  }

  function makeNode(name: string, parent: Node | undefined, deduplicate: boolean): Node {
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
    node.logger = createNodeLogger(node, emit, (suffix) => {
      let child = node.children.get(suffix);
      if (child === undefined) {
        child = makeNode(`${name}.${suffix}`, node, deduplicate);
        node.children.set(suffix, child);
      }
      return child.logger;
    });
    apply(node);
    nodes.push(node);
    return node;
  }

  function topNode(name: string, deduplicate: boolean): Node {
    const key = deduplicate ? name : `${name}\u0000raw`;
    let node = topLevel.get(key);
    if (node === undefined) {
      node = makeNode(name, undefined, deduplicate);
      topLevel.set(key, node);
    }
    return node;
  }

  const logger = (name: string, loggerOptions?: LoggerOptions): Logger =>
    topNode(name, loggerOptions?.deduplicate !== false).logger;

  return {
    logger,
    resourceLogger: (api, name) => logger(resourceLoggerName(api, name)),
    moduleLogger: (moduleName) => logger(moduleLoggerName(moduleName)),
    moduleStderrLogger: (moduleName) => {
      // Made under the module's logger so that the module's own log_level reaches it too.
      const moduleNode = topNode(moduleLoggerName(moduleName), true);
      let stderr = moduleNode.children.get(STDERR_CHILD);
      if (stderr === undefined) {
        stderr = makeNode(moduleStderrLoggerName(moduleName), moduleNode, false);
        moduleNode.children.set(STDERR_CHILD, stderr);
      }
      return stderr.logger;
    },
    configure(settings) {
      plan = compileLevelPlan(settings, forceDebug);
      for (const node of nodes) apply(node);
      return plan.issues;
    },
    moduleLogLevel: (moduleName) => plan.moduleLevel(moduleName),
    levelOf: (loggerName) => plan.loggerLevel(loggerName).level,
    close: () => dedup.close(),
  };
}
