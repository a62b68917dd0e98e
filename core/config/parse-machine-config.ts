// parseMachineConfig: JSON text or data in, the typed machine configuration with every default
// filled in and every problem found out. Only text that is not JSON, JSON that is not an object,
// or input past the size and depth limits (config-limits.ts) yields no configuration; anything
// else yields one, without the broken entries.
import type { ConfigIssue, MachineConfig, ParsedMachineConfig } from "./types.js";
import type { ValidatedConfig } from "./validated.js";
import { createIssueList, type IssueList } from "./issue-list.js";
import { formatPath, isRecord } from "./data-path.js";
import { describeValue } from "./messages.js";
import { jsonSyntaxProblem } from "./json-syntax.js";
import { nestingProblemInData, nestingProblemInText, sizeProblem, type LimitProblem } from "./config-limits.js";
import { originalIndex, runSchemaPass, type Origins } from "./schema-pass.js";
import { lowerCaseLevels } from "./log-levels.js";
import { buildResources, type NameOwners } from "./resources.js";
import { buildModules } from "./modules.js";
import { buildAgent } from "./agent-config.js";
import { buildCloud, buildLogRules, buildNetwork } from "./sections.js";
import { buildAuth } from "./auth-section.js";

export function parseMachineConfig(input: string | object): ParsedMachineConfig {
  const read = readJson(input);
  if ("problem" in read) return rejected(read.problem);
  if (!isRecord(read.data)) return rejected(`must be a JSON object (found ${describeValue(read.data)})`);

  const data = read.data;
  lowerCaseLevels(data);
  const issues = createIssueList();
  const schema = runSchemaPass(data, issues);
  let config = schema.conforms ? buildMachineConfig(data as unknown as ValidatedConfig, schema.origins, issues) : null;
  if (!config) issues.error([], "cannot be repaired into a usable configuration");
  // Leaving out what is wrong in auth would run the machine with less protection than asked.
  if (config && issues.hasErrorUnder("auth")) {
    issues.error([], "is refused whole: its auth section must be usable exactly as written (see the auth errors)");
    config = null;
  }
  return { config, issues: issues.inDocumentOrder(read.document) };
}

function buildMachineConfig(data: ValidatedConfig, origins: Origins, issues: IssueList): MachineConfig {
  const indexIn = (arrayPath: string) => (index: number) => originalIndex(origins, arrayPath, index);
  const owners: NameOwners = new Map();
  const config: MachineConfig = {
    components: buildResources("component", "components", data.components, indexIn("components"), owners, issues),
    services: buildResources("service", "services", data.services, indexIn("services"), owners, issues),
    modules: buildModules(data.modules, indexIn("modules"), issues),
    log: buildLogRules(data.log, indexIn("log"), issues),
    debug: data.debug,
    disable_log_deduplication: data.disable_log_deduplication,
    network: buildNetwork(data.network, issues),
    auth: buildAuth(data.auth, indexIn("auth.handlers"), issues),
    agent: buildAgent(data.agent, issues),
  };
  if (data.maintenance) config.maintenance = data.maintenance;
  const cloud = data.cloud && buildCloud(data.cloud, issues);
  if (cloud) config.cloud = cloud;
  return config;
}

type Read = { data: unknown; document: () => unknown } | { problem: string | LimitProblem };

// Objects go through JSON too: the caller's data is never changed, and both kinds of input
// are judged alike. `document` re-reads the untouched input, to order issues by it. Size and
// depth are judged first, before anything walks the input (JSON.stringify included).
function readJson(input: string | object): Read {
  let text: string | undefined;
  if (typeof input === "string") {
    text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
    const problem = sizeProblem(text.length) ?? nestingProblemInText(text);
    if (problem) return { problem };
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
    if (large) return { problem: large };
  }
  const json = text;
  try {
    return { data: JSON.parse(json), document: () => JSON.parse(json) };
  } catch {
    return { problem: `is not valid JSON: ${jsonSyntaxProblem(json)}` };
  }
}

function rejected(problem: string | LimitProblem): { config: null; issues: ConfigIssue[] } {
  const { path, message } = typeof problem === "string" ? { path: [], message: problem } : problem;
  return { config: null, issues: [{ path: formatPath(path), message, severity: "error" }] };
}
