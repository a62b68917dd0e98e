// The manufacturer defaults file (--defaults, /etc/svc-defaults.json): JSON shaped like the
// machine configuration's `agent` section, which a device maker ships so that every unit starts
// with the same settings, plus keys only the agent reads:
//   release_index_url  where the release index is (http, https or file URL)
// A missing file is normal (most devices have none); a broken one is a warning naming the file
// and where it breaks, and the agent goes on without it.
import { readFileSync } from "node:fs";
import { jsonSyntaxProblem } from "../../../../core/index.js";

/** Keys of the defaults file that are the agent's own, not part of the `agent` section. */
export const AGENT_ONLY_KEYS = ["release_index_url"] as const;

export interface DefaultsFile {
  /** The `agent`-shaped part; undefined when the file is missing or unusable. */
  agent: unknown;
  releaseIndexUrl?: string;
  warnings: string[];
}

export function readDefaultsFile(path: string): DefaultsFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { agent: undefined, warnings: [] };
    return { agent: undefined, warnings: [`${path}: cannot be read (${code ?? (error as Error).message}); not used`] };
  }
  const data = parseJsonObject(text);
  if ("problem" in data) return { agent: undefined, warnings: [`${path}: ${data.problem}; not used`] };
  const { release_index_url: url, ...agent } = data.value;
  const warnings: string[] = [];
  let releaseIndexUrl: string | undefined;
  if (url !== undefined) {
    if (isIndexUrl(url)) releaseIndexUrl = url;
    else warnings.push(`${path}: release_index_url: must be an http, https or file URL (ignored)`);
  }
  return { agent, releaseIndexUrl, warnings };
}

export function isIndexUrl(value: unknown): value is string {
  return typeof value === "string" && /^(https?|file):\/\/\S+$/.test(value);
}

/** JSON text that must hold an object; the problem in core/config's words (with line and column). */
export function parseJsonObject(text: string): { value: Record<string, unknown> } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return { problem: `is not valid JSON: ${jsonSyntaxProblem(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { problem: "must be a JSON object" };
  return { value: value as Record<string, unknown> };
}
