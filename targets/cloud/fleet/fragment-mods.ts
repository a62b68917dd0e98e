// Per-part overrides of what a fragment provides, in Viam's `fragment_mods` shape:
//   "fragment_mods": [{"fragment_id": ID, "mods": [{"$set": {"components.arm.attributes.speed": 2}},
//                                                  {"$unset": {"components.arm.attributes.limit": ""}}]}]
// A path starts with a resource list and the resource's name (`components.arm`, `processes.ID`) and
// goes on into that resource; any other path reaches into the fragment's own top-level settings.
// `$set` makes the objects on its way; `$unset` of something absent changes nothing. A mod touches
// only what its fragment (or a fragment nested in it) provides: the config's own resources are
// edited directly, not through mods.
import { Code, formatDataPath, SvcError } from "../../../core/index.js";

export type ModOperator = "$set" | "$unset";

export interface Mod {
  operator: ModOperator;
  /** The dotted path as written. */
  path: string;
  segments: string[];
  value: unknown;
  /** Where the mod is written, for messages: `fragment_mods[0].mods[1].$set["components.a.x"]`. */
  at: string;
}

export interface FragmentMods {
  fragmentId: string;
  at: string;
  mods: Mod[];
}

/** The resource lists of a config and the key that names each entry. */
export const KEYED_LISTS: Readonly<Record<string, string>> = {
  components: "name",
  services: "name",
  modules: "name",
  remotes: "name",
  packages: "name",
  processes: "id",
};

export const SINGULAR: Readonly<Record<string, string>> = {
  components: "component",
  services: "service",
  modules: "module",
  remotes: "remote",
  packages: "package",
  processes: "process",
};

const OPERATORS: readonly string[] = ["$set", "$unset"];
// Keys that would reach an object's prototype instead of a value of the config.
const FORBIDDEN = new Set(["__proto__", "constructor", "prototype"]);

const invalid = (message: string) => new SvcError(Code.InvalidArgument, message);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The `fragment_mods` of a config, checked for shape; `label` says whose config it is. */
export function readFragmentMods(value: unknown, label: string): FragmentMods[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid(`${label}: fragment_mods must be a list of {"fragment_id", "mods"}`);
  return value.map((entry: unknown, i) => {
    const at = `fragment_mods[${i}]`;
    if (!isObject(entry) || typeof entry.fragment_id !== "string" || entry.fragment_id === "") {
      throw invalid(`${label}: ${at}.fragment_id must be a fragment's id`);
    }
    if (!Array.isArray(entry.mods)) throw invalid(`${label}: ${at}.mods must be a list of {"$set": {...}} or {"$unset": {...}}`);
    const mods = entry.mods.flatMap((mod: unknown, j) => readMod(mod, `${at}.mods[${j}]`, label));
    return { fragmentId: entry.fragment_id, at, mods };
  });
}

function readMod(mod: unknown, at: string, label: string): Mod[] {
  if (!isObject(mod)) throw invalid(`${label}: ${at} must be {"$set": {...}} or {"$unset": {...}}`);
  return Object.entries(mod).flatMap(([operator, paths]) => {
    if (!OPERATORS.includes(operator)) throw invalid(`${label}: ${at}: ${JSON.stringify(operator)} is not applied (svc-cloud applies "$set" and "$unset")`);
    if (!isObject(paths)) throw invalid(`${label}: ${at}.${operator} must be an object of "path": value`);
    return Object.entries(paths).map(([path, value]) => {
      const where = `${at}.${operator}[${JSON.stringify(path)}]`;
      const segments = path.split(".");
      if (segments.some((s) => s === "")) throw invalid(`${label}: ${where}: a path is names joined by "." (e.g. "components.arm.attributes.speed")`);
      const forbidden = segments.find((s) => FORBIDDEN.has(s));
      if (forbidden !== undefined) throw invalid(`${label}: ${where}: "${forbidden}" cannot be set`);
      return { operator: operator as ModOperator, path, segments, value, at: where };
    });
  });
}

/** What a mod may reach: the own configs of a fragment and of those nested in it, by label. */
export interface ModTarget {
  label: string;
  own: Record<string, unknown>;
}

/**
 * Applies `mod` to the first of `targets` (the mod's fragment first, then those nested in it) that
 * provides the resource its path names; a top-level path applies to the mod's fragment itself.
 */
export function applyMod(mod: Mod, targets: readonly ModTarget[], label: string): void {
  const [list, name, ...rest] = mod.segments;
  const keyName = KEYED_LISTS[list!];
  if (keyName === undefined) {
    edit(targets[0]!.own, mod.segments, mod, label);
    return;
  }
  const what = `${SINGULAR[list!]} ${JSON.stringify(name ?? "")}`;
  if (name === undefined || rest.length === 0) throw invalid(`${label}: ${mod.at}: name a field of a ${SINGULAR[list!]} (e.g. "${list}.NAME.attributes.x"), not a whole one`);
  if (rest[0] === keyName) throw invalid(`${label}: ${mod.at}: the ${keyName} of a ${SINGULAR[list!]} cannot be changed by a mod`);
  for (const target of targets) {
    const entries = target.own[list!];
    const entry = Array.isArray(entries) ? entries.find((e: unknown) => isObject(e) && e[keyName] === name) : undefined;
    if (entry !== undefined) {
      edit(entry as Record<string, unknown>, rest, mod, label);
      return;
    }
  }
  throw invalid(`${label}: ${mod.at}: ${targets[0]!.label} provides no ${what}`);
}

function edit(root: Record<string, unknown>, segments: readonly string[], mod: Mod, label: string): void {
  let at: unknown = root;
  for (let i = 0; i < segments.length - 1; i++) {
    const segment = segments[i]!;
    const container = at as Record<string, unknown> | unknown[];
    let next = child(container, segment);
    if (next === undefined) {
      if (mod.operator === "$unset") return;
      if (Array.isArray(container)) throw invalid(`${label}: ${mod.at}: ${formatDataPath(segments.slice(0, i))} is a list without an item ${segment}`);
      next = container[segment] = {};
    }
    if (typeof next !== "object" || next === null) {
      throw invalid(`${label}: ${mod.at}: ${formatDataPath(segments.slice(0, i + 1))} is ${JSON.stringify(next)}, which has no fields`);
    }
    at = next;
  }
  const last = segments[segments.length - 1]!;
  if (Array.isArray(at)) {
    const index = arrayIndex(at, last);
    if (index === undefined) {
      if (mod.operator === "$unset") return;
      throw invalid(`${label}: ${mod.at}: ${formatDataPath(segments.slice(0, -1))} is a list without an item ${last}`);
    }
    if (mod.operator === "$set") at[index] = mod.value;
    else at.splice(index, 1);
    return;
  }
  const object = at as Record<string, unknown>;
  if (mod.operator === "$set") object[last] = mod.value;
  else delete object[last];
}

function child(container: Record<string, unknown> | unknown[], segment: string): unknown {
  if (Array.isArray(container)) {
    const index = arrayIndex(container, segment);
    return index === undefined ? undefined : container[index];
  }
  return Object.hasOwn(container, segment) ? container[segment] : undefined;
}

function arrayIndex(list: readonly unknown[], segment: string): number | undefined {
  if (!/^\d+$/.test(segment)) return undefined;
  const index = Number(segment);
  return index < list.length ? index : undefined;
}
