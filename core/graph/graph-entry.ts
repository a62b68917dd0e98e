// Turns configuration entries (and what their models' validators found) into the graph's
// entries: a full name, the dependency references as written, and any problem of the entry
// itself. Entries that cannot even be named (bad name, bad API, duplicate) are rejected here.
import type { ConfigIssue, ResourceConfig } from "../config/index.js";
import { fullResourceName, lastNamePart, parseApi, parseModel, simpleNameProblem } from "../resource/index.js";
import type { Hold } from "./resource-status.js";

/** One configured resource as the planner sees it (JSON only, so it crosses into XS). */
export interface PlanResourceInput {
  config: ResourceConfig;
  /** Where the entry sits in the configuration, e.g. `components[2]`. */
  path?: string;
  /** Dependencies a validator found in the attributes (in addition to `depends_on`). */
  requires?: string[];
  optional?: string[];
  /** Validator issues; any error holds the resource back as UNHEALTHY. */
  issues?: ConfigIssue[];
  /** False when no model is registered for it yet: it waits as UNCONFIGURED. */
  modelKnown?: boolean;
  /** Why the model is missing, when known (e.g. its module is restarting). */
  absent?: string;
  /** The caller has already found this entry equal to the running one, so it is not compared again. */
  unchanged?: boolean;
  /** Served by another part of the machine and joined here (engine-types.ts, JoinedResource). */
  joined?: boolean;
  /** Why a joined resource cannot be used now. */
  unavailable?: string;
}

export interface GraphEntry {
  name: string;
  /** The name's last part (`left` for `pi:left`): what a reference without a remote finds. */
  simple: string;
  config: ResourceConfig;
  path: string;
  requires: string[];
  optional: string[];
  problem?: Hold;
  unchanged?: boolean;
  /** Joined from another part: found by its simple name only where no configured resource has it. */
  joined?: boolean;
}

export interface PlanRejection {
  path: string;
  error: string;
}

function issueText(issues: ConfigIssue[]): string | undefined {
  let text: string | undefined;
  for (const issue of issues) {
    if (issue.severity !== "error") continue;
    const one = issue.path ? `${issue.path}: ${issue.message}` : issue.message;
    text = text === undefined ? one : `${text}; ${one}`;
  }
  return text;
}

/**
 * Makes graph entries one at a time, checking each distinct API and model text once (a machine has
 * few). Returns a rejection for an entry that cannot be named; duplicates are the caller's concern.
 */
export function createEntryMaker(): (input: PlanResourceInput, position: number) => GraphEntry | PlanRejection {
  const apiProblems = new Map<string, string | undefined>();
  const modelProblems = new Map<string, string | undefined>();
  const problemOf = (cache: Map<string, string | undefined>, text: unknown, what: string, parse: typeof parseApi | typeof parseModel) => {
    if (typeof text !== "string") return `${what} is required`;
    if (cache.has(text)) return cache.get(text);
    const parsed = parse(text);
    const problem = parsed.ok ? undefined : parsed.error;
    cache.set(text, problem);
    return problem;
  };
  return (input, position) => {
    const config = input.config;
    const path = input.path ?? `resources[${position}]`;
    const nameProblem = typeof config.name === "string" ? simpleNameProblem(config.name) : "a name is required";
    if (nameProblem !== undefined) return { path: `${path}.name`, error: nameProblem };
    const badApi = problemOf(apiProblems, config.api, "an API", parseApi);
    if (badApi !== undefined) return { path: `${path}.api`, error: badApi };
    const dependsOn = Array.isArray(config.depends_on) ? config.depends_on : [];
    const entry: GraphEntry = {
      name: fullResourceName(config.api, config.name),
      simple: lastNamePart(config.name),
      config,
      path,
      requires: input.requires && input.requires.length ? dependsOn.concat(input.requires) : dependsOn,
      optional: input.optional ?? [],
    };
    if (input.unchanged) entry.unchanged = true;
    if (input.joined) entry.joined = true;
    const badModel = problemOf(modelProblems, config.model, "a model", parseModel);
    const issues = input.issues && input.issues.length ? issueText(input.issues) : undefined;
    if (badModel !== undefined) entry.problem = { state: "UNHEALTHY", error: `${path}.model: ${badModel}`, root: true };
    else if (input.unavailable !== undefined) entry.problem = { state: "UNHEALTHY", error: input.unavailable, root: true };
    else if (issues !== undefined) entry.problem = { state: "UNHEALTHY", error: `invalid configuration: ${issues}`, root: true };
    else if (input.modelKnown === false) {
      entry.problem = {
        state: "UNCONFIGURED",
        error:
          input.absent === undefined
            ? `no model ${config.model} is registered for API ${config.api}; waiting for it to be registered`
            : `model ${config.model} (API ${config.api}) is not available: ${input.absent}`,
        root: true,
      };
    }
    return entry;
  };
}

export function isRejection(made: GraphEntry | PlanRejection): made is PlanRejection {
  return (made as PlanRejection).error !== undefined;
}

export function toGraphEntries(inputs: PlanResourceInput[]): { entries: GraphEntry[]; rejected: PlanRejection[] } {
  const entries: GraphEntry[] = [];
  const rejected: PlanRejection[] = [];
  const firstPath = new Map<string, string>();
  const make = createEntryMaker();
  for (let i = 0; i < inputs.length; i++) {
    const made = make(inputs[i]!, i);
    if (isRejection(made)) {
      rejected.push(made);
      continue;
    }
    const earlier = firstPath.get(made.name);
    if (earlier !== undefined) {
      rejected.push({ path: made.path, error: `${made.name} is configured twice; the entry at ${earlier} is used` });
      continue;
    }
    firstPath.set(made.name, made.path);
    entries.push(made);
  }
  return { entries, rejected };
}
