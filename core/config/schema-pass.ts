// Checks the data against the schema and repairs what it reports, until the data conforms to
// the schema: an unknown key is removed (a warning; an error in `auth`); a bad value inside an
// entry (a component, service, module, process, remote, log rule, global log entry, auth handler,
// additional network, the maintenance window or the cloud credentials) leaves that entry out;
// any other bad value is removed so that the next run fills in its default. Every problem becomes one issue, with its path in the original document.
import { configSchema } from "./config-schema.js";
import { checkSchema } from "./schema-check.js";
import { formatPath, isRecord, valueAt, type DataPath, type Segment } from "./data-path.js";
import { schemaErrorMessage } from "./messages.js";
import type { IssueList } from "./issue-list.js";

// "#" matches an array index, "*" any key.
const entries: ReadonlyArray<readonly string[]> = [
  ["components", "#"],
  ["services", "#"],
  ["modules", "#"],
  ["processes", "#"],
  ["remotes", "#"],
  ["log", "#"],
  ["global_log_configuration", "#"],
  ["auth", "handlers", "#"],
  ["agent", "additional_networks", "*"],
  ["maintenance"],
  ["cloud"],
];

// Sections where an unknown key is an error rather than a warning: a misspelt key there would
// otherwise quietly drop what it was meant to ask for.
const strictSections: ReadonlySet<string> = new Set(["auth"]);

// Each repair removes the cause of at least one error and a default is always valid, so two
// runs suffice for any input; the bound only guards against a schema that breaks that rule.
const maxRuns = 4;

/** Original indices of the items still in each repaired array, by the array's path. */
export type Origins = Map<string, number[]>;

export interface SchemaPassResult {
  conforms: boolean;
  origins: Origins;
}

export function runSchemaPass(data: Record<string, unknown>, issues: IssueList): SchemaPassResult {
  const origins: Origins = new Map();
  for (let run = 0; run < maxRuns; run++) {
    const errors = checkSchema(configSchema, data);
    if (errors.length === 0) return { conforms: true, origins };
    const removals: DataPath[] = [];
    for (const error of errors) {
      const path = error.path;
      const original = originalPath(path, origins);
      const message = schemaErrorMessage(error, original, valueAt(data, path), strictSections.has(String(path[0])));
      if (error.keyword === "additionalProperties" && !strictSections.has(String(path[0]))) {
        issues.warning(original, message);
        removals.push(path);
        continue;
      }
      issues.error(original, message);
      const entry = entryLength(path);
      removals.push(entry > 0 ? path.slice(0, entry) : error.keyword === "required" ? path.slice(0, -1) : path);
    }
    remove(data, removals, origins);
  }
  return { conforms: false, origins };
}

/** The original index of `index` in the array at `arrayPath`. */
export function originalIndex(origins: Origins, arrayPath: string, index: number): number {
  return origins.get(arrayPath)?.[index] ?? index;
}

function originalPath(path: DataPath, origins: Origins): Segment[] {
  return path.map((segment, i) =>
    typeof segment === "number" ? originalIndex(origins, formatPath(path.slice(0, i)), segment) : segment,
  );
}

function entryLength(path: DataPath): number {
  for (const pattern of entries) {
    if (path.length < pattern.length) continue;
    const matches = pattern.every((p, i) =>
      p === "#" ? typeof path[i] === "number" : p === "*" ? typeof path[i] === "string" : p === path[i],
    );
    if (matches) return pattern.length;
  }
  return 0;
}

// Removals are applied after all errors of a run are read, since the errors' pointers refer to
// the data as validated; array items go last and highest index first.
function remove(data: Record<string, unknown>, paths: DataPath[], origins: Origins): void {
  const fromArrays = new Map<string, { array: unknown[]; indices: Set<number> }>();
  for (const path of paths) {
    if (path.length === 0) continue;
    const parent = valueAt(data, path.slice(0, -1));
    const last = path[path.length - 1]!;
    if (Array.isArray(parent) && typeof last === "number") {
      const key = formatPath(path.slice(0, -1));
      const group = fromArrays.get(key) ?? { array: parent, indices: new Set<number>() };
      group.indices.add(last);
      fromArrays.set(key, group);
    } else if (isRecord(parent) && typeof last === "string") {
      delete parent[last];
    }
  }
  for (const [key, { array, indices }] of fromArrays) {
    const before = origins.get(key) ?? array.map((_, i) => i);
    origins.set(key, before.filter((_, i) => !indices.has(i)));
    const sorted = Array.from(indices).sort((a, b) => b - a);
    for (const index of sorted) array.splice(index, 1);
  }
}
