// What the machine would refuse in a configuration's resources, found without building anything:
// each entry run through its model's own validator, then the dependency graph the engine would
// plan with (cycles, ambiguous or broken references, dependencies that are not configured).
// Entries whose model is not registered are handed back rather than judged: whether one may still
// come (from a module) is for the caller to say. References to the configuration's remotes'
// resources are set aside (remote-references.ts): they are known only once the remotes are.
import type { ConfigIssue, ResourceConfig } from "../config/index.js";
import { validateResourceConfig, type ModelRegistry } from "../resource/index.js";
import { buildDependencyGraph } from "./dependency-graph.js";
import { toGraphEntries, type PlanResourceInput } from "./graph-entry.js";
import { setAsideRemoteReferences } from "./remote-references.js";

export interface PlacedResource {
  config: ResourceConfig;
  /** Where the entry is written, e.g. `components[2]`. */
  path: string;
}

export interface ResourceCheck {
  /** Validator issues (errors and warnings), then graph problems (errors), each at its entry. */
  issues: ConfigIssue[];
  /** Entries whose (API, model) has no registered model. */
  unknownModels: PlacedResource[];
}

/** `remotes`: the names of the configuration's remotes. */
export function checkResources(resources: readonly PlacedResource[], registry: ModelRegistry, remotes: readonly string[] = []): ResourceCheck {
  const issues: ConfigIssue[] = [];
  const unknownModels: PlacedResource[] = [];
  const inputs: PlanResourceInput[] = resources.map(({ config, path }) => {
    const v = validateResourceConfig(registry, config, path);
    issues.push(...v.issues);
    if (!v.modelKnown) unknownModels.push({ config, path });
    return { config, path, requires: v.requires, optional: v.optional, issues: v.issues, modelKnown: v.modelKnown };
  });
  const { entries, rejected } = toGraphEntries(setAsideRemoteReferences(inputs, remotes, issues));
  for (const r of rejected) issues.push({ path: r.path, message: r.error, severity: "error" });
  const graph = buildDependencyGraph(entries);
  for (let i = 0; i < entries.length; i++) {
    const hold = graph.hold[i];
    // An entry's own problem is said above; a resource that only waits for a held one is no mistake of its own.
    if (!hold?.root || entries[i]!.problem) continue;
    issues.push({ path: entries[i]!.path, message: hold.error, severity: "error" });
  }
  return { issues, unknownModels };
}
