// Configuration issues in the log: each one once, as an error or a warning with its path. Issues
// the running configuration already had were reported when it was taken and are not repeated.
import type { ConfigIssue } from "../config/index.js";
import type { LogFields, Logger } from "../logging/index.js";

const key = (issue: ConfigIssue) => `${issue.path}\u0000${issue.message}`;

export function reportIssues(log: Logger, issues: readonly ConfigIssue[], known: readonly ConfigIssue[], at: LogFields): void {
  const seen = new Set(known.map(key));
  for (const issue of issues) {
    if (seen.has(key(issue))) continue;
    const write = issue.severity === "error" ? log.error : log.warn;
    write.call(log, issue.message, { ...at, path: issue.path });
  }
}
