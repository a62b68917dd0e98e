// parseMachineConfig: JSON text or data in, the typed machine configuration with every default
// filled in and every problem found out. Only text that is not JSON, JSON that is not an object,
// or input past the size and depth limits (config-limits.ts) yields no configuration; anything
// else yields one, without the broken entries. readMachineConfig is the same parse, keeping what
// a machine needs after it: the text its revision is taken over, and the document as written
// (parsed entries leave broken ones out, so an entry's place in the file is found there). The
// document is the one JSON.parse that orders the issues, made only when something asks for it.
import type { ConfigIssue, MachineConfig, ParsedMachineConfig } from "./types.js";
import type { ValidatedConfig } from "./validated.js";
import { createIssueList, type IssueList } from "./issue-list.js";
import { formatPath, isRecord } from "./data-path.js";
import { describeValue } from "./messages.js";
import { jsonSyntaxProblem } from "./json-syntax.js";
import { nestingProblemInData, nestingProblemInText, sizeProblem, type LimitProblem } from "./config-limits.js";
import { originalIndex, runSchemaPass, type Origins } from "./schema-pass.js";
import { lowerCaseLevels } from "./log-levels.js";
import { screenViamKeys } from "./viam-keys.js";
import { buildResources, type NameOwners } from "./resources.js";
import { buildModules } from "./modules.js";
import { buildProcesses } from "./processes.js";
import { buildRemotes } from "./remotes.js";
import { buildAgent } from "./agent-config.js";
import { buildCloud, buildGlobalLog, buildLogRules, buildNetwork } from "./sections.js";
import { buildAuth } from "./auth-section.js";

/** One parse of a configuration, with the text it was read from and the document as written. */
export interface ConfigReading extends ParsedMachineConfig {
  /** The input as given when it is text; data written as JSON; undefined for data JSON cannot hold. */
  readonly text: string | undefined;
  /** The document as written (JSON.parse of the text, untouched), or undefined when it is not JSON. */
  written(): unknown;
}

// Made on first use: a firmware that preloads this module keeps what its load made read-only.
let readings: WeakSet<object> | undefined;

/** Whether `value` is a reading made by readMachineConfig (and not configuration data). */
export function isConfigReading(value: unknown): value is ConfigReading {
  return typeof value === "object" && value !== null && readings !== undefined && readings.has(value);
}

export function parseMachineConfig(input: string | object): ParsedMachineConfig {
  const { config, issues } = parseRead(readJson(input));
  return { config, issues };
}

export function readMachineConfig(input: string | object): ConfigReading {
  const read = readJson(input);
  const { config, issues } = parseRead(read);
  const reading: ConfigReading = {
    config,
    issues,
    text: typeof input === "string" ? input : read.text,
    written: read.document ?? (() => undefined),
  };
  (readings ??= new WeakSet()).add(reading);
  return reading;
}

function parseRead(read: Read): ParsedMachineConfig {
  if ("problem" in read) return rejected(read.problem);
  if (!isRecord(read.data)) return rejected(`must be a JSON object (found ${describeValue(read.data)})`);

  const data = read.data;
  lowerCaseLevels(data);
  const issues = createIssueList();
  screenViamKeys(data, issues);
  const schema = runSchemaPass(data, issues);
  let config = schema.conforms ? buildMachineConfig(data as unknown as ValidatedConfig, schema.origins, issues) : null;
  if (!config) issues.error([], "cannot be repaired into a usable configuration");
  // Leaving out what is wrong in auth or TLS would run the machine with less protection than asked.
  const weakened = config ? weakenedProtection(issues) : undefined;
  if (weakened) {
    issues.error([], `is refused whole: its ${weakened.section} must be usable exactly as written (see the ${weakened.errors} errors)`);
    config = null;
  }
  if (config?.disable_partial_start && (issues.hasErrorUnder("components") || issues.hasErrorUnder("services"))) {
    issues.error([], "is refused whole: disable_partial_start asks that every component and service be usable (see the errors under components and services)");
    config = null;
  }
  return { config, issues: issues.inDocumentOrder(read.document) };
}

function weakenedProtection(issues: IssueList): { section: string; errors: string } | undefined {
  if (issues.hasErrorUnder("auth")) return { section: "auth section", errors: "auth" };
  if (issues.hasErrorUnder(["network", "tls_cert_file"]) || issues.hasErrorUnder(["network", "tls_key_file"])) {
    return { section: "TLS settings", errors: "TLS" };
  }
  return undefined;
}

function buildMachineConfig(data: ValidatedConfig, origins: Origins, issues: IssueList): MachineConfig {
  const indexIn = (arrayPath: string) => (index: number) => originalIndex(origins, arrayPath, index);
  const owners: NameOwners = new Map();
  const config: MachineConfig = {
    components: buildResources("component", "components", data.components, indexIn("components"), owners, issues),
    services: buildResources("service", "services", data.services, indexIn("services"), owners, issues),
    modules: buildModules(data.modules, indexIn("modules"), issues),
    processes: buildProcesses(data.processes, indexIn("processes"), issues),
    remotes: buildRemotes(data.remotes, indexIn("remotes"), issues),
    log: buildLogRules(data.log, indexIn("log"), issues),
    global_log_configuration: buildGlobalLog(data.global_log_configuration),
    debug: data.debug,
    disable_log_deduplication: data.disable_log_deduplication,
    disable_partial_start: data.disable_partial_start,
    network: buildNetwork(data.network, issues),
    auth: buildAuth(data.auth, indexIn("auth.handlers"), issues),
    agent: buildAgent(data.agent, issues),
  };
  if (data.maintenance) config.maintenance = data.maintenance;
  const cloud = data.cloud && buildCloud(data.cloud, issues);
  if (cloud) config.cloud = cloud;
  return config;
}

type Read =
  | { text?: string; data: unknown; document: () => unknown }
  | { text?: string; problem: string | LimitProblem; document?: () => unknown };

// Objects go through JSON too: the caller's data is never changed, and both kinds of input
// are judged alike. `document` re-reads the untouched input once, on first use, to order issues
// by it and to find entries' places. Size and depth are judged first, before anything walks the
// input (JSON.stringify included).
function readJson(input: string | object): Read {
  let text: string | undefined;
  if (typeof input === "string") {
    const stripped = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
    text = stripped;
    const problem = sizeProblem(stripped.length) ?? nestingProblemInText(stripped);
    // Past a limit it is no configuration, but what it was written as may still be asked.
    if (problem) return { problem, document: once(() => parsedOrUndefined(stripped)) };
  } else {
    const deep = nestingProblemInData(input);
    if (deep) return { problem: deep };
    try {
      text = JSON.stringify(input);
    } catch {
      return { problem: "is not JSON data (it holds a cycle or a value JSON cannot represent)" };
    }
    if (text === undefined) return { problem: `must be a JSON object (found ${describeValue(input)})` };
    const large = sizeProblem(text.length);
    if (large) return { text, problem: large };
  }
  const json = text;
  try {
    return { text, data: JSON.parse(json), document: once(() => JSON.parse(json)) };
  } catch {
    return { problem: `is not valid JSON: ${jsonSyntaxProblem(json)}` };
  }
}

function parsedOrUndefined(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

function once<T>(make: () => T): () => T {
  let made = false;
  let value: T | undefined;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value as T;
  };
}

function rejected(problem: string | LimitProblem): { config: null; issues: ConfigIssue[] } {
  const { path, message } = typeof problem === "string" ? { path: [], message: problem } : problem;
  return { config: null, issues: [{ path: formatPath(path), message, severity: "error" }] };
}
