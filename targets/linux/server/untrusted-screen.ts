// -untrusted-env: entries that would start a process or a shell (modules, processes, the process
// and shell models) are left out of the machine, each reported with its place in the file.
import type { ConfigIssue, MachineConfig } from "../../../core/index.js";
import { findUntrustedEntries, untrustedEntryIssues } from "./system/index.js";

export function screenUntrusted(config: MachineConfig, written: unknown): { config: MachineConfig; issues: ConfigIssue[] } {
  const entries = findUntrustedEntries(config, written);
  if (entries.length === 0) return { config, issues: [] };
  const refused = (section: string, name: string) => entries.some((e) => e.section === section && e.name === name);
  return {
    config: {
      ...config,
      modules: config.modules.filter((m) => !refused("modules", m.name)),
      processes: config.processes.filter((p) => !refused("processes", p.id)),
      components: config.components.filter((c) => !refused("components", c.name)),
      services: config.services.filter((s) => !refused("services", s.name)),
    },
    issues: untrustedEntryIssues(entries),
  };
}
