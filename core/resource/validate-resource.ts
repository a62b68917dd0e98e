// Runs a model's validator on one configuration entry, safely: a validator that throws or returns
// something malformed becomes an issue on that entry instead of an exception in the caller.
import type { ConfigIssue, ResourceConfig } from "../config/index.js";
import type { ModelRegistry } from "./model-registry.js";
import { errorMessage } from "../errors/index.js";

export interface ResourceValidation {
  /** False when no model is registered for the entry's (api, model) yet. */
  modelKnown: boolean;
  /** Why the model is missing, when whoever provides it said so. */
  absent?: string;
  requires: string[];
  optional: string[];
  issues: ConfigIssue[];
}

const none: string[] = [];

function names(value: unknown, where: string, issues: ConfigIssue[]): string[] {
  if (value === undefined) return none;
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value as string[];
  issues.push({ path: where, message: "the model's validator returned dependencies that are not a list of names", severity: "error" });
  return none;
}

export function validateResourceConfig(registry: ModelRegistry, config: ResourceConfig, path: string): ResourceValidation {
  const registration = registry.lookup(config.api, config.model);
  if (registration === undefined) {
    const absent = registry.absence(config.api, config.model);
    return absent === undefined
      ? { modelKnown: false, requires: none, optional: none, issues: [] }
      : { modelKnown: false, absent, requires: none, optional: none, issues: [] };
  }
  if (registration.validate === undefined) return { modelKnown: true, requires: none, optional: none, issues: [] };
  const issues: ConfigIssue[] = [];
  try {
    const found = registration.validate(config, path) ?? {};
    const requires = names(found.requiredDependencies, `${path}.attributes`, issues);
    const optional = names(found.optionalDependencies, `${path}.attributes`, issues);
    if (found.issues) for (const issue of found.issues) issues.push(issue);
    return { modelKnown: true, requires, optional, issues };
  } catch (thrown) {
    issues.push({ path: `${path}.attributes`, message: `validation failed: ${errorMessage(thrown)}`, severity: "error" });
    return { modelKnown: true, requires: none, optional: none, issues };
  }
}
