// What this svc-server would refuse in a configuration's components and services, judged without
// building anything: the built-in models' own checks of their attributes, dependency cycles and
// references (core's checkResources), and models and APIs this build does not have. A model no
// built-in provides is an error unless a configured module may provide it: a module that declares
// its models (module-declared-models.ts) provides those and no others; one whose models are known
// only once it runs may provide any, which is a warning naming it.
import {
  checkResources,
  createModelRegistry,
  type ConfigIssue,
  type MachineConfig,
  type ModelRegistry,
  servedApiOf,
  type PlacedResource,
} from "../../../core/index.js";
import { REMOTE_APIS } from "../remote/index.js";
import { registerLinuxModels } from "./linux-models.js";
import { declaredModels, modelKey, type DeclaredModels } from "./module-declared-models.js";
import { writtenPaths } from "./written-places.js";

interface ConfiguredModule {
  name: string;
  path: string;
  declared: DeclaredModels;
}

export function checkConfiguredResources(config: MachineConfig, written: unknown, configDir: string): ConfigIssue[] {
  const registry = createModelRegistry();
  registerLinuxModels(registry);
  const placed: PlacedResource[] = [];
  for (const section of ["components", "services"] as const) {
    const paths = writtenPaths(written, section, config[section]);
    config[section].forEach((entry, i) => placed.push({ config: entry, path: paths[i]! }));
  }
  const modulePaths = writtenPaths(written, "modules", config.modules);
  const modules: ConfiguredModule[] = config.modules.map((m, i) => ({ name: m.name, path: modulePaths[i]!, declared: declaredModels(m, configDir) }));

  const issues: ConfigIssue[] = [];
  for (const m of modules) {
    if (!m.declared.known && m.declared.problem) issues.push({ path: m.path, message: m.declared.problem, severity: "warning" });
  }
  const found = checkResources(placed, registry, config.remotes.map((r) => r.name));
  issues.push(...found.issues);
  for (const entry of found.unknownModels) {
    const issue = judgeUnknownModel(entry, registry, modules);
    if (issue) issues.push(issue);
  }
  return issues;
}

/** Nothing for a model a configured module declares: that module checks the entry when it runs. */
function judgeUnknownModel({ config, path }: PlacedResource, registry: ModelRegistry, modules: readonly ConfiguredModule[]): ConfigIssue | undefined {
  const { api, model } = config;
  const builtIn = () => registry.list().filter((r) => r.api === api).map((r) => r.model.replace(/^rdk:builtin:/, ""));
  if (!REMOTE_APIS.includes(api)) {
    // An API svc-server serves only through its own models (no module can bring one) is served all the same.
    const served = servedApiOf(api)?.targets.includes("linux") === true;
    const why = served ? `it is not built in (${builtIn().join(", ")} are) and modules cannot provide that API` : "svc does not serve that API";
    return { path, message: `model ${model} of API ${api} cannot run: ${why} (svc-server -dump-resources lists what it has)`, severity: "error" };
  }
  if (modules.some((m) => m.declared.known && m.declared.models.has(modelKey(api, model)))) return undefined;
  const maybe = modules.filter((m) => !m.declared.known).map((m) => JSON.stringify(m.name));
  if (maybe.length > 0) {
    const who = maybe.length === 1 ? `module ${maybe[0]}` : `modules ${maybe.join(", ")}`;
    return {
      path,
      message: `model ${model} is not built in; ${who} may provide it (which models a module provides is known once it runs)`,
      severity: "warning",
    };
  }
  const declaring = modules.length === 0 ? "no module is configured" : "no configured module declares it";
  return { path, message: `model ${model} of API ${api} cannot run: it is not built in (${builtIn().join(", ")} are) and ${declaring}`, severity: "error" };
}
