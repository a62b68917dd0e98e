// `-dump-resources PATH`: every registered API and model with the JSON schema of its attributes,
// sorted, as pretty JSON, for tools and documentation that describe what a machine can run.
import { writeFileSync } from "node:fs";
import type { RegisteredModel } from "../../../../core/index.js";
import { DiagnosticsError } from "./diagnostics-error.js";
import { checkOutputPath } from "./output-path.js";

export interface ResourceDumpEntry {
  api: string;
  model: string;
  /** null when the model publishes no schema. */
  attributes_schema: Record<string, unknown> | null;
}

/** The dump as written: sorted by API, then model. */
export function resourceDump(registry: { list(): RegisteredModel[] }): ResourceDumpEntry[] {
  return registry
    .list()
    .map((entry) => ({ api: entry.api, model: entry.model, attributes_schema: entry.attributesSchema ?? null }))
    .sort((a, b) => compare(a.api, b.api) || compare(a.model, b.model));
}

/** Writes the dump to `path`; returns how many models it holds. Throws DiagnosticsError. */
export function dumpResources(registry: { list(): RegisteredModel[] }, path: string): number {
  const file = checkOutputPath("-dump-resources", path);
  const dump = resourceDump(registry);
  try {
    writeFileSync(file, `${JSON.stringify(dump, null, 2)}\n`);
  } catch (cause) {
    throw new DiagnosticsError(`-dump-resources ${JSON.stringify(path)}: cannot write: ${(cause as Error).message}`, { cause });
  }
  return dump.length;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
