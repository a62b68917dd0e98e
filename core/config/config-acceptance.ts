// Whether a configuration may replace the running one. The first configuration runs whatever is
// valid in it (bad entries are reported and left out). A later one that brings errors the running
// configuration did not have is refused whole: a broken edit must leave the machine as it was,
// not quietly remove the resource whose entry was mistyped. Errors already present (and already
// reported) do not block other edits.
import type { ConfigIssue, MachineConfig } from "./types.js";

export type Acceptance =
  | { accepted: true; config: MachineConfig }
  | { accepted: false; reason: string; newErrors: ConfigIssue[] };

const key = (issue: ConfigIssue) => `${issue.path}\u0000${issue.message}`;

export function acceptConfig(
  parsed: { config: MachineConfig | null; issues: readonly ConfigIssue[] },
  running: { issues: readonly ConfigIssue[] } | undefined,
): Acceptance {
  const errors = parsed.issues.filter((i) => i.severity === "error");
  if (!parsed.config) {
    const first = errors[0];
    const reason = first === undefined ? "the configuration is not a JSON object" : first.path ? `${first.path}: ${first.message}` : first.message;
    return { accepted: false, reason, newErrors: errors };
  }
  if (!running) return { accepted: true, config: parsed.config };
  const known = new Set(running.issues.filter((i) => i.severity === "error").map(key));
  const newErrors = errors.filter((i) => !known.has(key(i)));
  if (newErrors.length > 0) {
    const first = newErrors[0]!;
    return {
      accepted: false,
      reason: `${newErrors.length} new error(s), first ${first.path || "(file)"}: ${first.message}`,
      newErrors,
    };
  }
  return { accepted: true, config: parsed.config };
}
