// A configuration change as lines a person can read in the log:
//   components["temp"].attributes.pin: 12 -> 13
//   components["left"]: (absent) -> {"name":"left","api":"rdk:component:motor",...}
// A list of named entries (components, services, modules, remotes: objects with a `name`) is
// compared entry by entry by name, not by position, so removing one entry is one line rather than
// every later entry seeming to change; when one name is used under two APIs, entries are told
// apart by `api/name`. Other lists are compared by position.
// Secrets are shown masked unless the caller was told to reveal them
// (-reveal-sensitive-config-diffs); a changed secret still shows up as a changed line.
// A log line stays readable whatever the edit: a value longer than 1,000 characters is cut (its
// length said), and past 100 lines the rest are counted in one last line. The walks recurse once
// per level of nesting, which the configuration's depth limit keeps small.
import { MASK, isSecretPath, maskAt, type PathSegment } from "./secrets.js";

export interface ConfigDiffOptions {
  /** Print secrets as they are (-reveal-sensitive-config-diffs). Default false. */
  reveal?: boolean;
  /** Lines before the rest are only counted. Default 100. */
  maxLines?: number;
}

const ABSENT = "(absent)";
const MAX_SHOWN_CHARACTERS = 1_000;
const DEFAULT_MAX_LINES = 100;

/** A step of a printed path: a key, an index, or a named entry of a list. */
type ShownSegment = PathSegment | { entry: string };

/** One line per changed value, in the order of the configurations' keys; [] when nothing changed. */
export function formatConfigDiff(before: unknown, after: unknown, options: ConfigDiffOptions = {}): string[] {
  const lines: string[] = [];
  const reveal = options.reveal === true;
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  let more = 0;
  const push = (line: () => string) => {
    if (lines.length < maxLines) lines.push(line());
    else more++;
  };

  function show(value: unknown, path: PathSegment[]): string {
    if (value === undefined) return ABSENT;
    const text = JSON.stringify(reveal ? value : maskAt(value, path)) ?? String(value);
    return text.length <= MAX_SHOWN_CHARACTERS ? text : `${text.slice(0, MAX_SHOWN_CHARACTERS)}... (${text.length} characters)`;
  }

  // `path` finds secrets (a named entry stands at its index there, which "*" matches); `shown` is printed.
  function walk(a: unknown, b: unknown, path: PathSegment[], shown: ShownSegment[]): void {
    if (sameJson(a, b)) return;
    if (!reveal && isSecretPath(path)) {
      const from = a === undefined ? ABSENT : MASK;
      const to = b === undefined ? ABSENT : MASK;
      push(() => `${formatShown(shown)}: ${from} -> ${to}`);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      const keys = entryKeys(a, b);
      if (keys) walkEntries(a, b, keys, path, shown);
      else for (let i = 0; i < Math.max(a.length, b.length); i++) walk(a[i], b[i], path.concat(i), shown.concat(i));
      return;
    }
    if (isPlainObject(a) && isPlainObject(b)) {
      for (const key of Object.keys(a)) walk(a[key], b[key], path.concat(key), shown.concat(key));
      for (const key of Object.keys(b)) if (!(key in a)) walk(undefined, b[key], path.concat(key), shown.concat(key));
      return;
    }
    push(() => `${formatShown(shown)}: ${show(a, path)} -> ${show(b, path)}`);
  }

  /** Entries of `before` in their order (changed or removed), then the entries `after` adds. */
  function walkEntries(a: unknown[], b: unknown[], keyOf: (entry: unknown) => string, path: PathSegment[], shown: ShownSegment[]): void {
    const afterAt = new Map(b.map((entry, i) => [keyOf(entry), i]));
    const beforeKeys = new Set<string>();
    a.forEach((entry, i) => {
      const key = keyOf(entry);
      beforeKeys.add(key);
      const j = afterAt.get(key);
      walk(entry, j === undefined ? undefined : b[j], path.concat(j ?? i), shown.concat({ entry: key }));
    });
    b.forEach((entry, j) => {
      const key = keyOf(entry);
      if (!beforeKeys.has(key)) walk(undefined, entry, path.concat(j), shown.concat({ entry: key }));
    });
  }

  walk(before, after, [], []);
  if (more > 0) lines.push(`... and ${more} more change(s)`);
  return lines;
}

/**
 * How to key the entries of two lists compared by name: by `id` when every entry of both has a
 * unique one (processes, whose `name` is their program), else by `name` when every entry of both
 * has one and each list holds each name once, by `api/name` when names repeat across APIs;
 * undefined for lists that are not lists of named entries (compared by position).
 */
function entryKeys(a: readonly unknown[], b: readonly unknown[]): ((entry: unknown) => string) | undefined {
  const identified = (entry: unknown) => isPlainObject(entry) && typeof entry.id === "string" && entry.id !== "";
  const byId = (entry: unknown) => (entry as { id: string }).id;
  if (a.every(identified) && b.every(identified) && unique(a, byId) && unique(b, byId)) return byId;
  const named = (entry: unknown) => isPlainObject(entry) && typeof entry.name === "string" && entry.name !== "";
  if (!a.every(named) || !b.every(named)) return undefined;
  const byName = (entry: unknown) => (entry as { name: string }).name;
  if (unique(a, byName) && unique(b, byName)) return byName;
  const withApi = (entry: unknown) => `${String((entry as { api?: unknown }).api)}/${byName(entry)}`;
  const hasApi = (entry: unknown) => typeof (entry as { api?: unknown }).api === "string";
  if (a.every(hasApi) && b.every(hasApi) && unique(a, withApi) && unique(b, withApi)) return withApi;
  return undefined;
}

function unique(list: readonly unknown[], keyOf: (entry: unknown) => string): boolean {
  return new Set(list.map(keyOf)).size === list.length;
}

/** `components["left"].attributes.pins.a`: a named entry is written as its quoted name. */
function formatShown(shown: readonly ShownSegment[]): string {
  if (shown.length === 0) return "(root)";
  let text = "";
  for (const part of shown) {
    if (typeof part === "object") text += `[${JSON.stringify(part.entry)}]`;
    else if (typeof part === "number") text += `[${part}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(part)) text += text === "" ? part : `.${part}`;
    else text += `[${JSON.stringify(part)}]`;
  }
  return text;
}

/** `components[1].attributes.pin`; keys that are not plain identifiers are quoted: `a["my net"]`. */
export function formatPath(path: readonly PathSegment[]): string {
  return formatShown(path);
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
