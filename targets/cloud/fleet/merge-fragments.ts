// A config and the fragments it uses, put together into the one config a machine runs. A config
// lists its fragments (`"fragments": ["ID"]` or Viam's `[{"id": "ID"}]`); a fragment may list
// fragments of its own. Each fragment is included once however many paths lead to it; a fragment
// that leads back to itself is a cycle, named whole in the error. Each config's `fragment_mods`
// edit what its fragments provide (fragment-mods.ts), the innermost first, the part's last. Then
// everything is merged: a resource name (per list) that two sources both provide, or a setting
// they set differently, is an error naming both: nothing wins silently. What comes out lists no
// fragments and no mods: svc-server receives a config complete in itself.
import { Code, MAX_CONFIG_CHARACTERS, MAX_CONFIG_DEPTH, SvcError } from "../../../core/index.js";
import { applyMod, KEYED_LISTS, readFragmentMods, SINGULAR, type FragmentMods, type ModTarget } from "./fragment-mods.js";

export interface FragmentSource {
  id: string;
  name: string;
  config: Record<string, unknown>;
}

/** A fragment of the organisation by id, or undefined when it has none by that id. */
export type FragmentLookup = (id: string) => Promise<FragmentSource | undefined>;

/** The config being put together: a part's, or a fragment's (checked when it is saved). */
export interface MergeRoot {
  /** The fragment's id, for a fragment (so one that uses itself is found); undefined for a part. */
  fragmentId?: string;
  /** How messages name it: `the part`, `fragment "base" (ID)`. */
  label: string;
  config: Record<string, unknown>;
}

export interface Merged {
  config: Record<string, unknown>;
  /** The fragments included, by id, in the order they were merged. */
  fragmentIds: string[];
}

/** How deep fragments may nest in fragments. */
export const MAX_FRAGMENT_NESTING = 16;
/** How many fragments one config may include, nested ones counted. */
export const MAX_FRAGMENTS = 100;
/** Keys that say how a config is put together rather than what the machine runs. */
const COMPOSITION_KEYS = ["fragments", "fragment_mods", "revision"];

interface Node {
  id: string | undefined;
  label: string;
  own: Record<string, unknown>;
  children: string[];
  mods: FragmentMods[];
}

const invalid = (message: string) => new SvcError(Code.InvalidArgument, message);

export function fragmentLabel(fragment: { id: string; name: string }): string {
  return `fragment ${JSON.stringify(fragment.name)} (${fragment.id})`;
}

export async function mergeFragments(root: MergeRoot, lookup: FragmentLookup): Promise<Merged> {
  const rootNode = nodeOf(root.fragmentId, root.label, root.config);
  const nodes = new Map<string, Node>();
  const order: Node[] = [];

  // Depth first, in the order the configs list them: a fragment's place is where it first appears.
  const visit = async (id: string, stack: readonly Node[], at: string): Promise<void> => {
    const loop = stack.findIndex((n) => n.id === id);
    if (loop >= 0) throw invalid(`${at}: fragments form a cycle: ${[...stack.slice(loop).map((n) => n.label), stack[loop]!.label].join(" -> ")}`);
    if (nodes.has(id)) return;
    if (stack.length > MAX_FRAGMENT_NESTING) throw invalid(`${at}: fragments nest deeper than ${MAX_FRAGMENT_NESTING} levels`);
    const source = await lookup(id);
    if (source === undefined) throw new SvcError(Code.NotFound, `${at}: no fragment ${id} in this organisation`);
    const node = nodeOf(id, fragmentLabel(source), source.config);
    nodes.set(id, node);
    order.push(node);
    if (order.length > MAX_FRAGMENTS) throw invalid(`${root.label}: uses more than ${MAX_FRAGMENTS} fragments`);
    for (const [i, child] of node.children.entries()) await visit(child, [...stack, node], `${node.label}: fragments[${i}]`);
  };
  for (const [i, child] of rootNode.children.entries()) await visit(child, [rootNode], `${root.label}: fragments[${i}]`);

  // The innermost mods first, so what a part asks for is applied last.
  for (const node of [...order].reverse().concat(rootNode)) applyModsOf(node, nodes);

  const merged = structuredClone(rootNode.own);
  const owners = new Owners(root.label);
  owners.claimAll(merged, root.label);
  for (const node of order) mergeInto(merged, node.own, node.label, owners);
  checkBounds(merged, root.label);
  return { config: merged, fragmentIds: order.map((n) => n.id!) };
}

function nodeOf(id: string | undefined, label: string, config: Record<string, unknown>): Node {
  const own = structuredClone(config);
  for (const key of COMPOSITION_KEYS) delete own[key];
  return { id, label, own, children: readFragmentIds(config.fragments, label), mods: readFragmentMods(config.fragment_mods, label) };
}

/** The ids a `fragments` list names: ids, or Viam's `{"id": ID}` objects. */
export function readFragmentIds(value: unknown, label: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid(`${label}: fragments must be a list of fragment ids`);
  return value.map((entry: unknown, i) => {
    const id = typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>).id : entry;
    if (typeof id !== "string" || id === "") throw invalid(`${label}: fragments[${i}] must be a fragment's id or {"id": ID}`);
    return id;
  });
}

function applyModsOf(node: Node, nodes: ReadonlyMap<string, Node>): void {
  for (const entry of node.mods) {
    if (!within(node, entry.fragmentId, nodes)) {
      throw invalid(`${node.label}: ${entry.at}.fragment_id: ${entry.fragmentId} is not a fragment this config uses`);
    }
    const targets: ModTarget[] = [...subtree(entry.fragmentId, nodes)].map((n) => ({ label: n.label, own: n.own }));
    for (const mod of entry.mods) applyMod(mod, targets, node.label);
  }
}

/** Whether `id` is nested (at any depth) in `node`. */
function within(node: Node, id: string, nodes: ReadonlyMap<string, Node>): boolean {
  return node.children.some((child) => [...subtree(child, nodes)].some((n) => n.id === id));
}

/** A fragment and every fragment nested in it, each once, the fragment first. */
function subtree(id: string, nodes: ReadonlyMap<string, Node>): Set<Node> {
  const seen = new Set<Node>();
  const walk = (at: string) => {
    const node = nodes.get(at)!;
    if (seen.has(node)) return;
    seen.add(node);
    for (const child of node.children) walk(child);
  };
  walk(id);
  return seen;
}

/** Who provided each resource and each setting, so a clash names both sources. */
class Owners {
  private readonly byKey = new Map<string, string>();
  constructor(private readonly rootLabel: string) {}

  resource(list: string, name: string): string | undefined {
    return this.byKey.get(`${list}\u0000${name}`);
  }

  claimResource(list: string, name: string, label: string): void {
    this.byKey.set(`${list}\u0000${name}`, label);
  }

  setting(path: readonly string[]): string {
    for (let n = path.length; n > 0; n--) {
      const owner = this.byKey.get(`\u0001${path.slice(0, n).join("\u0000")}`);
      if (owner !== undefined) return owner;
    }
    return this.rootLabel;
  }

  claimSetting(path: readonly string[], label: string): void {
    this.byKey.set(`\u0001${path.join("\u0000")}`, label);
  }

  claimAll(config: Record<string, unknown>, label: string): void {
    for (const [list, key] of Object.entries(KEYED_LISTS)) {
      const entries = config[list];
      if (!Array.isArray(entries)) continue;
      for (const entry of entries) {
        const name = nameOf(entry, key);
        if (name !== undefined && this.resource(list, name) === undefined) this.claimResource(list, name, label);
      }
    }
  }
}

function nameOf(entry: unknown, key: string): string | undefined {
  const name = typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>)[key] : undefined;
  return typeof name === "string" ? name : undefined;
}

function mergeInto(merged: Record<string, unknown>, own: Record<string, unknown>, label: string, owners: Owners): void {
  for (const [key, value] of Object.entries(own)) {
    const nameKey = KEYED_LISTS[key];
    if (nameKey !== undefined) {
      if (!Array.isArray(value)) throw invalid(`${label}: ${key} must be a list`);
      const into = merged[key] ?? (merged[key] = []);
      if (!Array.isArray(into)) throw invalid(`${owners.setting([key])}: ${key} must be a list`);
      for (const entry of value) {
        const name = nameOf(entry, nameKey);
        if (name !== undefined) {
          const owner = owners.resource(key, name);
          if (owner !== undefined && owner !== label) {
            throw invalid(`${SINGULAR[key]} ${JSON.stringify(name)} is in both ${owner} and ${label}: a name may appear once; rename one, or change the fragment's with fragment_mods`);
          }
          owners.claimResource(key, name, label);
        }
        into.push(entry);
      }
      continue;
    }
    mergeSetting(merged, key, value, [key], label, owners);
  }
}

/** Objects merge field by field; anything else is set once, or set again only to the same value. */
function mergeSetting(into: Record<string, unknown>, key: string, value: unknown, path: string[], label: string, owners: Owners): void {
  if (!Object.hasOwn(into, key)) {
    into[key] = value;
    owners.claimSetting(path, label);
    return;
  }
  const existing = into[key];
  if (isPlainObject(existing) && isPlainObject(value)) {
    for (const [k, v] of Object.entries(value)) mergeSetting(existing, k, v, [...path, k], label, owners);
    return;
  }
  if (JSON.stringify(existing) === JSON.stringify(value)) return;
  throw invalid(`${path.join(".")} is set by both ${owners.setting(path)} and ${label}, differently: set it in one place`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkBounds(config: Record<string, unknown>, label: string): void {
  const characters = JSON.stringify(config).length;
  if (characters > MAX_CONFIG_CHARACTERS) {
    throw invalid(`${label}: with its fragments the config would be ${characters} characters long; a config may have at most ${MAX_CONFIG_CHARACTERS}`);
  }
  if (depthOf(config) > MAX_CONFIG_DEPTH) throw invalid(`${label}: with its fragments the config would nest deeper than ${MAX_CONFIG_DEPTH} levels`);
}

/** Levels of arrays and objects, the value itself being level 1; without recursion. */
export function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [at, level] = stack.pop()!;
    if (typeof at !== "object" || at === null) continue;
    deepest = Math.max(deepest, level);
    if (level > MAX_CONFIG_DEPTH) return level;
    for (const child of Object.values(at)) stack.push([child, level + 1]);
  }
  return deepest;
}
