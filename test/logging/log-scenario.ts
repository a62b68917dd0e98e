// A log scenario as pure data: a configuration, then steps (log, advance the clock, reconfigure,
// read levels). It runs on a manual clock with a collecting sink and returns everything that
// happened as JSON, so the same scenario can be run on Node and in XS and the answers compared.
import type { ConfigIssue } from "../../core/config/index.js";
import type { LoggingSettings } from "../../core/logging/level-plan.js";
import { createLogEngine, type Logger } from "../../core/logging/log-engine.js";
import { createCollectingSink, type LogEntry } from "../../core/logging/log-entry.js";
import { parseLogLevel, type LogLevel } from "../../core/logging/levels.js";
import { createManualClock } from "../../core/manual-clock.js";

/**
 * A logger reference: a plain name (`svc.networking`), `stderr:<module>` for a module's stderr,
 * or `<reference> > <suffix>` for a sub-logger.
 */
export type LoggerRef = string;

export type LogScenarioStep =
  | { log: LoggerRef; level: string; message: string; fields?: Record<string, unknown>; times?: number }
  | { advance: number }
  | { configure: LoggingSettings }
  | { levels: LoggerRef[] }
  | { moduleLevels: string[] }
  | { close: true };

export interface LogScenarioInput {
  settings?: LoggingSettings;
  /** The -debug command-line flag. */
  debug?: boolean;
  /** Clock reading at the start; 0 when absent. */
  start?: number;
  steps: LogScenarioStep[];
}

export interface LogScenarioOutput {
  entries: LogEntry[];
  /** Issues of the initial settings, then of each `configure` step, in order. */
  issues: ConfigIssue[][];
  /** One record per `levels` or `moduleLevels` step: name -> level at that moment. */
  levels: Record<string, LogLevel>[];
}

export function runLogScenario(input: LogScenarioInput): LogScenarioOutput {
  const clock = createManualClock(input.start ?? 0);
  const sink = createCollectingSink();
  const engine = createLogEngine({ clock, sink, debug: input.debug === true });
  const output: LogScenarioOutput = { entries: sink.entries, issues: [], levels: [] };
  output.issues.push(engine.configure(input.settings ?? {}).slice());

  // Loggers are looked up once and kept, so later steps use the very objects a reconfiguration updates.
  const loggers = new Map<string, Logger>();
  function resolve(ref: LoggerRef): Logger {
    let found = loggers.get(ref);
    if (found !== undefined) return found;
    const split = ref.lastIndexOf(" > ");
    if (split >= 0) found = resolve(ref.slice(0, split)).child(ref.slice(split + 3));
    else if (ref.startsWith("stderr:")) found = engine.moduleStderrLogger(ref.slice("stderr:".length));
    else found = engine.logger(ref);
    loggers.set(ref, found);
    return found;
  }

  for (const step of input.steps) {
    if ("log" in step) {
      const logger = resolve(step.log);
      const level = parseLogLevel(step.level);
      if (level === undefined) continue;
      for (let i = 0; i < (step.times ?? 1); i++) logger.log(level, step.message, step.fields);
    } else if ("advance" in step) {
      clock.advance(step.advance);
    } else if ("configure" in step) {
      output.issues.push(engine.configure(step.configure).slice());
    } else if ("levels" in step) {
      const seen: Record<string, LogLevel> = {};
      for (const ref of step.levels) seen[ref] = resolve(ref).level();
      output.levels.push(seen);
    } else if ("moduleLevels" in step) {
      const seen: Record<string, LogLevel> = {};
      for (const name of step.moduleLevels) seen[name] = engine.moduleLogLevel(name);
      output.levels.push(seen);
    } else if ("close" in step) {
      engine.close();
    }
  }
  return output;
}
