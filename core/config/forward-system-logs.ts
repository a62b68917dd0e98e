// `forward_system_logs`: which journald SYSLOG_IDENTIFIERs the agent forwards. A comma-separated
// list; "all" forwards every identifier, "-name" excludes one (which only means something
// together with "all"), any other name is forwarded. "" forwards nothing.
import type { SystemLogForwarding } from "./types.js";
import type { IssueList } from "./issue-list.js";
import type { DataPath } from "./data-path.js";

export function parseForwardSystemLogs(text: string, path: DataPath, issues: IssueList): SystemLogForwarding {
  const parsed: SystemLogForwarding = { all: false, include: [], exclude: [] };
  for (const item of text.split(",").map((s) => s.trim())) {
    if (item === "") continue;
    if (item === "all") parsed.all = true;
    else if (item === "-" || item === "-all") {
      issues.error(path, `${JSON.stringify(item)} is not an identifier to exclude; the item is ignored`);
    } else if (item.startsWith("-")) {
      if (!parsed.exclude.includes(item.slice(1))) parsed.exclude.push(item.slice(1));
    } else if (!parsed.include.includes(item)) parsed.include.push(item);
  }
  if (!parsed.all && parsed.exclude.length > 0) {
    issues.warning(path, `excluding (${parsed.exclude.map((e) => `"-${e}"`).join(", ")}) has no effect without "all"`);
    parsed.exclude = [];
  }
  if (parsed.all && parsed.include.length > 0) {
    issues.warning(path, `"all" already forwards ${parsed.include.map((e) => `"${e}"`).join(", ")}`);
    parsed.include = [];
  }
  return parsed;
}
