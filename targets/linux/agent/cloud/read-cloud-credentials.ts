// The machine's cloud credentials as the agent uses them: the credentials file's `cloud` section
// (undefined when it has none: the machine is not managed by svc-cloud), or why it cannot be used.
import { readFileSync } from "node:fs";
import { readMachineConfig } from "../../../../core/index.js";
import { cloudCredentialsOf, type CloudCredentials } from "../../cloud-link/index.js";

export function readCloudCredentials(configFile: string): CloudCredentials | { problem: string } | undefined {
  let text: string;
  try {
    text = readFileSync(configFile, "utf8");
  } catch {
    return undefined;
  }
  const { config, issues } = readMachineConfig(text);
  const cloudIssue = issues.find((issue) => issue.severity === "error" && /^cloud(\.|$)/.test(issue.path));
  if (cloudIssue) return { problem: `${cloudIssue.path}: ${cloudIssue.message}` };
  if (!config?.cloud) return undefined;
  // The agent has no -allow-insecure-creds: plain http only to this machine itself.
  return cloudCredentialsOf(config.cloud, false);
}
