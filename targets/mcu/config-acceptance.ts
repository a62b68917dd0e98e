// Whether a configuration may replace the running one on the MCU, by the server's rules: the
// first configuration runs whatever is valid in it (bad entries are reported and left out); a
// later one that brings errors the running one did not have is refused whole, so a broken edit
// leaves the machine as it was. Also the configuration's revision, a hash of its text.
import type { ConfigIssue, MachineConfig } from "../../core/index.js";

export type Acceptance = { accepted: true; config: MachineConfig } | { accepted: false; reason: string; newErrors: ConfigIssue[] };

const key = (issue: ConfigIssue) => `${issue.path}\u0000${issue.message}`;

export function acceptConfig(
  parsed: { config: MachineConfig | null; issues: readonly ConfigIssue[] },
  running: { issues: readonly ConfigIssue[] } | undefined,
): Acceptance {
  const errors = parsed.issues.filter((i) => i.severity === "error");
  if (!parsed.config) return { accepted: false, reason: errors[0]?.message ?? "the configuration is not a JSON object", newErrors: errors };
  if (!running) return { accepted: true, config: parsed.config };
  const known = new Set(running.issues.filter((i) => i.severity === "error").map(key));
  const newErrors = errors.filter((i) => !known.has(key(i)));
  if (newErrors.length === 0) return { accepted: true, config: parsed.config };
  const first = newErrors[0]!;
  return { accepted: false, reason: `${newErrors.length} new error(s), first ${first.path || "(file)"}: ${first.message}`, newErrors };
}

/** 12 hex digits naming a configuration text (two 32-bit FNV-1a hashes; no crypto on the MCU). */
export function configRevision(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c ^ (i & 0xff), 0x01000193) >>> 0;
  }
  return (a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0")).slice(0, 12);
}
