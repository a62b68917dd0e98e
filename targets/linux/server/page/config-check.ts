// What svc-server would refuse in a configuration text saved from the control page, judged the
// way the machine will judge the file: its `${NAME}` references filled in, the core's validator,
// then the models' own checks and the dependency graph. Only errors stop a save.
import { dirname, resolve } from "node:path";
import { readMachineConfig, type ConfigIssue } from "../../../../core/index.js";
import { checkConfiguredResources } from "../check-configured-resources.js";
import { expandFileText } from "../config-watch/read-config-text.js";

export function checkConfigText(file: string, text: string, env: NodeJS.ProcessEnv = process.env): ConfigIssue[] {
  const expanded = expandFileText(file, text, env);
  if ("problem" in expanded) return [{ path: "", message: expanded.problem, severity: "error" }];
  const reading = readMachineConfig(expanded.text);
  const issues = [...reading.issues];
  if (reading.config) issues.push(...checkConfiguredResources(reading.config, reading.written(), dirname(resolve(file))));
  return issues;
}
