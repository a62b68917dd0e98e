// -untrusted-env: in an untrusted environment the machine must not start processes or a shell.
// This finds every configuration entry that would: every module (each is a process of its own),
// every entry of `processes`, and every component or service whose model runs programs or commands (the process and shell
// models, the shell service). The machine refuses each one, reported with where it is.
import type { ConfigIssue, MachineConfig, ResourceConfig } from "../../../../core/index.js";
import { placeFinder } from "../written-places.js";

export interface UntrustedEntry {
  /** Where the entry is, as in configuration issues: `modules[0]`, `components[3]`. */
  path: string;
  section: "modules" | "processes" | "components" | "services";
  name: string;
  /** What it would start: the executable (a module's, a process entry's or a process model's `name`), the module id, or the model. */
  starts: string;
  message: string;
}

/** Models that start programs or run commands, whatever their API. */
const processModels = new Set(["rdk:builtin:process", "rdk:builtin:shell"]);
/** APIs that exist to run commands, whatever their model. */
const processApis = new Set(["rdk:service:shell"]);

/**
 * Every entry of `config` that would start a process or a shell. `written` is the configuration
 * as parsed from the file (JSON.parse); given, paths use the entry's place there, since entries
 * with errors are left out of `config`.
 */
export function findUntrustedEntries(config: MachineConfig, written?: unknown): UntrustedEntry[] {
  const found: UntrustedEntry[] = [];
  const place = placeFinder(written);
  config.modules.forEach((module, index) => {
    const starts = module.type === "local" ? module.executable_path : `registry module ${module.module_id}${module.version ? `@${module.version}` : ""}`;
    const path = `modules[${place("modules", module.name, index)}]`;
    found.push({
      path,
      section: "modules",
      name: module.name,
      starts,
      message: `module ${JSON.stringify(module.name)} runs a process of its own (${starts}); -untrusted-env refuses it`,
    });
  });
  config.processes.forEach((entry, index) => {
    found.push({
      path: `processes[${place("processes", entry.id, index, "id")}]`,
      section: "processes",
      name: entry.id,
      starts: entry.name,
      message: `process ${JSON.stringify(entry.id)} starts a program (${entry.name}); -untrusted-env refuses it`,
    });
  });
  for (const section of ["components", "services"] as const) {
    config[section].forEach((entry, index) => {
      const why = startsProcess(entry);
      if (!why) return;
      const program = typeof entry.attributes.name === "string" ? entry.attributes.name : undefined;
      found.push({
        path: `${section}[${place(section, entry.name, index)}]`,
        section,
        name: entry.name,
        starts: program ?? entry.model,
        message: `${JSON.stringify(entry.name)} (${entry.api}, model ${entry.model}) ${why}${program ? ` (${program})` : ""}; -untrusted-env refuses it`,
      });
    });
  }
  return found;
}

/** The same findings as configuration errors, for status and logs. */
export function untrustedEntryIssues(entries: readonly UntrustedEntry[]): ConfigIssue[] {
  return entries.map((entry) => ({ path: entry.path, message: entry.message, severity: "error" }));
}

function startsProcess(entry: ResourceConfig): string | undefined {
  if (processApis.has(entry.api)) return "runs shell commands";
  if (processModels.has(entry.model)) return entry.model.endsWith(":shell") ? "runs shell commands" : "starts a process";
  return undefined;
}
