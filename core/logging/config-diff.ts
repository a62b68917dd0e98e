// A configuration change as lines a person can read in the log:
//   components[1].attributes.pin: 12 -> 13
//   components[2]: (absent) -> {"name":"left","api":"rdk:component:motor",...}
// Secrets are shown masked unless the caller was told to reveal them
// (-reveal-sensitive-config-diffs); a changed secret still shows up as a changed line.
import { MASK, isSecretPath, maskAt, type PathSegment } from "./secrets.js";

export interface ConfigDiffOptions {
  /** Print secrets as they are (-reveal-sensitive-config-diffs). Default false. */
  reveal?: boolean;
}

const ABSENT = "(absent)";

/** One line per changed value, in the order of the configurations' keys; [] when nothing changed. */
export function formatConfigDiff(before: unknown, after: unknown, options: ConfigDiffOptions = {}): string[] {
  const lines: string[] = [];
  const reveal = options.reveal === true;

  function show(value: unknown, path: PathSegment[]): string {
    if (value === undefined) return ABSENT;
    return JSON.stringify(reveal ? value : maskAt(value, path)) ?? String(value);
  }

  function walk(a: unknown, b: unknown, path: PathSegment[]): void {
    if (sameJson(a, b)) return;
    if (!reveal && isSecretPath(path)) {
      const from = a === undefined ? ABSENT : MASK;
      const to = b === undefined ? ABSENT : MASK;
      lines.push(`${formatPath(path)}: ${from} -> ${to}`);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let i = 0; i < Math.max(a.length, b.length); i++) walk(a[i], b[i], path.concat(i));
      return;
    }
    if (isPlainObject(a) && isPlainObject(b)) {
      for (const key of Object.keys(a)) walk(a[key], b[key], path.concat(key));
      for (const key of Object.keys(b)) if (!(key in a)) walk(undefined, b[key], path.concat(key));
      return;
    }
    lines.push(`${formatPath(path)}: ${show(a, path)} -> ${show(b, path)}`);
  }

  walk(before, after, []);
  return lines;
}

/** `components[1].attributes.pin`; keys that are not plain identifiers are quoted: `a["my net"]`. */
export function formatPath(path: readonly PathSegment[]): string {
  if (path.length === 0) return "(root)";
  let text = "";
  for (const part of path) {
    if (typeof part === "number") text += `[${part}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(part)) text += text === "" ? part : `.${part}`;
    else text += `[${JSON.stringify(part)}]`;
  }
  return text;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => sameJson(item, other[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => key in right && sameJson(left[key], right[key]));
}
