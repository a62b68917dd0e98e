// `svc-server -validate -config FILE`: checks a configuration without running it, and reports
// what the machine would refuse: the file's own problems, what the models say of their entries,
// dependency cycles and references, and models and APIs this build does not have. It judges the
// configuration itself, not this machine: a module executable missing here is only a warning,
// since the file may be meant for another device.
import { existsSync } from "node:fs";
import { readConfigText } from "./config-watch/index.js";
import { isAbsolute, resolve, dirname } from "node:path";
import { readMachineConfig, type ConfigIssue } from "../../../core/index.js";
import { checkConfiguredResources } from "./check-configured-resources.js";
import { placeFinder } from "./written-places.js";

export interface ValidateResult {
  lines: string[];
  exitCode: 0 | 1;
}

export function validateConfigFile(file: string): ValidateResult {
  const read = readConfigText(file);
  if ("problem" in read) return { lines: [read.problem], exitCode: 1 };
  const reading = readMachineConfig(read.text);
  const { config } = reading;
  const all: ConfigIssue[] = [...reading.issues];
  const written = reading.written();
  const place = placeFinder(written);
  for (const [index, module] of (config?.modules ?? []).entries()) {
    const i = place("modules", module.name, index);
    if (module.type !== "local" || !module.executable_path) continue;
    const path = isAbsolute(module.executable_path)
      ? module.executable_path
      : resolve(dirname(file), module.executable_path);
    if (!existsSync(path)) {
      all.push({
        path: `modules[${i}].executable_path`,
        message: `${module.executable_path} does not exist on this machine`,
        severity: "warning",
      });
    }
  }
  if (config) all.push(...checkConfiguredResources(config, written, dirname(resolve(file))));
  const lines = all.map((issue) => formatIssue(file, issue));
  const errors = all.filter((i) => i.severity === "error").length;
  const warnings = all.length - errors;
  lines.push(`${file}: ${errors} error(s), ${warnings} warning(s)`);
  return { lines, exitCode: errors > 0 ? 1 : 0 };
}

export function formatIssue(file: string, issue: ConfigIssue): string {
  const where = issue.path === "" ? file : issue.path;
  return `${where}: ${issue.message}${issue.severity === "warning" ? " (warning)" : ""}`;
}
