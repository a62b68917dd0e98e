// Module entries: unique names, and what each kind needs to start: a local module its
// executable, a registry module its id. A broken entry is left out with its issue.
import type { ModuleConfig } from "./types.js";
import type { ValidatedConfig } from "./validated.js";
import type { IssueList } from "./issue-list.js";
import type { Segment } from "./data-path.js";
import { parseDuration } from "./duration.js";

// A registry module without a version follows the newest release.
const defaultRegistryVersion = "latest";

export function buildModules(
  entries: ValidatedConfig["modules"],
  originalIndex: (index: number) => number,
  issues: IssueList,
): ModuleConfig[] {
  const built: ModuleConfig[] = [];
  const owners = new Map<string, string>();
  entries.forEach((entry, index) => {
    const path: Segment[] = ["modules", originalIndex(index)];
    const owner = owners.get(entry.name);
    if (owner !== undefined) {
      issues.error([...path, "name"], `${JSON.stringify(entry.name)} is already used by ${owner}`);
      return;
    }
    if (entry.type === "local" && entry.executable_path === "") {
      issues.error([...path, "executable_path"], "is required for a local module: the path of its executable");
      return;
    }
    if (entry.type === "registry" && entry.module_id === "") {
      issues.error([...path, "module_id"], 'is required for a registry module: an id shaped "<namespace>:<name>"');
      return;
    }
    const startupMs = parseDuration(entry.startup_timeout);
    if (startupMs === undefined || startupMs < 1000) {
      issues.error([...path, "startup_timeout"], `must be a duration of at least "1s", such as "30s" or "5m" (found ${JSON.stringify(entry.startup_timeout)})`);
      return;
    }
    // Viam writes it as a duration, or as Go's nanoseconds.
    const firstRun = entry.first_run_timeout as string | number;
    const firstRunMs = typeof firstRun === "number" ? firstRun / 1e6 : parseDuration(firstRun);
    if (firstRunMs === undefined || firstRunMs < 1000) {
      issues.error([...path, "first_run_timeout"], `must be a duration of at least "1s", such as "10m" or "1h" (found ${JSON.stringify(entry.first_run_timeout)})`);
      return;
    }
    owners.set(entry.name, `modules[${path[1]}]`);
    built.push({
      type: entry.type,
      name: entry.name,
      executable_path: entry.executable_path,
      log_level: entry.log_level,
      env: entry.env,
      module_id: entry.module_id,
      version: entry.version === "" && entry.type === "registry" ? defaultRegistryVersion : entry.version,
      startup_timeout: entry.startup_timeout,
      startup_timeout_ms: startupMs,
      first_run_timeout: typeof firstRun === "number" ? `${firstRunMs / 1000}s` : firstRun,
      first_run_timeout_ms: firstRunMs,
    });
  });
  return built;
}
