// One load, phase by phase. read: the revision, and the one parse when the revision is new.
// judge (judge-load.ts): decides and changes nothing; an exception there refuses the load.
// announce: issues and the diff in the log. commit: the configuration is in force (log levels,
// the accepted event). run: modules, then the graph. restore: an exception after commit puts the
// configuration before back in force, so the next load starts clean.
import { isConfigReading, readMachineConfig, type ConfigReading, type MachineConfig } from "../config/index.js";
import type { ApplyResult, GraphEngine } from "../graph/index.js";
import { loggingSettingsOf, type LogFields, type Logger } from "../logging/index.js";
import type { ConfigListeners } from "./config-listeners.js";
import { reportIssues } from "./issue-report.js";
import { judgeLoad, type Judgement } from "./judge-load.js";
import type { ConfigInput, LoadResult, MachineModules, MachineOptions, Refusal, RunningConfig } from "./machine-types.js";

/** What a machine holds between loads. */
export interface MachineState {
  running: RunningConfig | undefined;
  refusal: Refusal | undefined;
}

/** What the phases work with: the machine's parts, its state and its followers. */
export interface LoadContext {
  readonly options: MachineOptions;
  readonly log: Logger;
  readonly engine: GraphEngine;
  readonly modules: MachineModules | undefined;
  readonly state: MachineState;
  readonly listeners: ConfigListeners;
}

type Taken = Extract<Judgement, { accepted: true }>;

/** A load as read: its revision (undefined for data JSON cannot hold), and its parse, made on first use. */
interface LoadInput {
  revision: string | undefined;
  reading(): ConfigReading;
}

/** Log lines name where a configuration came from, when the platform says. */
const at = (origin: string): LogFields => (origin === "" ? {} : { file: origin });

export async function loadOnce(context: LoadContext, input: ConfigInput, origin: string, stated?: string): Promise<LoadResult> {
  const { state, options } = context;
  let judged: Judgement;
  let written: () => unknown = () => undefined;
  try {
    const { revision, reading } = read(input, stated === undefined ? options.revisionOf : () => stated);
    const running = state.running;
    if (running && running.revision === revision) return { outcome: "unchanged", revision: running.revision };
    const parsed = reading();
    written = parsed.written;
    // Data that cannot be written as JSON has no revision; parsing refuses it in its own words.
    judged = judgeLoad(parsed, { revision: revision ?? "", origin, running, screen: options.screen, revealSecrets: options.revealSecrets });
  } catch (thrown) {
    return refuse(context, { reason: `cannot be applied: ${String(thrown)}`, origin, issues: [] }, written);
  }
  if (!judged.accepted) return refuse(context, { reason: judged.reason, origin, issues: judged.issues }, written);

  let previous = state.running;
  try {
    announce(context, judged);
    previous = commit(context, judged);
    return { ...(await run(context, judged.next, previous)), revision: judged.next.revision };
  } catch (thrown) {
    return restore(context, previous, judged.next, thrown);
  }
}

function read(input: ConfigInput, revisionOf: (text: string) => string): LoadInput {
  if (isConfigReading(input)) {
    return { revision: input.text === undefined ? undefined : revisionOf(input.text), reading: () => input };
  }
  const text = textOf(input);
  let reading: ConfigReading | undefined;
  return {
    revision: text === undefined ? undefined : revisionOf(text),
    reading: () => (reading ??= readMachineConfig(input)),
  };
}

function refuse(context: LoadContext, refusal: Refusal, written: () => unknown): LoadResult {
  const { state, log } = context;
  const { reason, origin, issues } = refusal;
  const first = state.running === undefined;
  state.refusal = refusal;
  reportIssues(log, issues, [], at(origin));
  log.error(first ? "configuration cannot be used" : "configuration refused; the machine keeps running as it was", { ...at(origin), reason });
  context.listeners.emit({ kind: "refused", origin, running: state.running, refusal, first, written });
  return { outcome: "refused", reason, issues };
}

function announce(context: LoadContext, judged: Taken): void {
  const { issues, origin } = judged.next;
  reportIssues(context.log, issues, context.state.running?.issues ?? [], at(origin));
  for (const line of judged.changes) context.log.info(`config change: ${line}`, at(origin));
}

function commit(context: LoadContext, judged: Taken): RunningConfig | undefined {
  const { state } = context;
  const previous = state.running;
  state.running = judged.next;
  state.refusal = undefined;
  context.options.logEngine.configure(loggingSettingsOf(judged.next.config));
  context.listeners.emit({ kind: "accepted", origin: judged.next.origin, running: judged.next, previous, changes: judged.changes });
  return previous;
}

async function run(context: LoadContext, next: RunningConfig, previous: RunningConfig | undefined): Promise<ApplyResult> {
  const { log, modules } = context;
  const { config, revision, origin } = next;
  // Modules start (and changed ones restart) first, so their models can be validated and built.
  await modules?.prepare(config);
  const result = await context.engine.apply(config, { revision });
  if (result.outcome === "applied") {
    await modules?.finish(config);
    log.info(previous ? "configuration applied" : "configuration loaded", { ...at(origin), revision, ...counts(config, modules !== undefined) });
  } else if (result.outcome === "deferred") {
    log.info("configuration deferred until the maintenance window allows it", { ...at(origin), reason: result.reason });
  }
  return result;
}

function restore(context: LoadContext, previous: RunningConfig | undefined, failed: RunningConfig, thrown: unknown): LoadResult {
  const { state, log } = context;
  const { origin, revision } = failed;
  state.running = previous;
  if (previous) context.options.logEngine.configure(loggingSettingsOf(previous.config));
  const error = String(thrown);
  log.error("applying the configuration failed; the machine keeps running as it was", { ...at(origin), error });
  context.listeners.emit({ kind: "restored", origin, running: previous, error });
  return { outcome: "failed", error, revision };
}

/** Configuration data as JSON text, for its revision; undefined when JSON cannot hold it. */
function textOf(input: string | object): string | undefined {
  if (typeof input === "string") return input;
  try {
    return JSON.stringify(input);
  } catch {
    return undefined;
  }
}

function counts(config: MachineConfig, withModules: boolean): LogFields {
  const resources = { components: config.components.length, services: config.services.length };
  return withModules ? { ...resources, modules: config.modules.length } : resources;
}
