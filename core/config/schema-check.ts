// Checks data against core/config/schema.json by reading the schema itself: the few keywords it
// uses (type, properties, required, additionalProperties, items, enum, pattern, minimum,
// maximum, default, $ref) and nothing else. Node and XS run this same code; on a microcontroller
// the schema as data and this reader are a fraction of the size of a compiled validator.
// Missing properties with a `default` are filled in (a fresh copy each time), and every problem
// is reported, in the order ajv reports them (test/config holds the two to each other).
import type { Segment } from "./data-path.js";

export interface SchemaNode {
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | SchemaNode;
  readonly items?: SchemaNode;
  readonly enum?: readonly unknown[];
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly default?: unknown;
  readonly definitions?: Readonly<Record<string, SchemaNode>>;
  readonly "x-shape"?: string;
}

export type SchemaKeyword = "type" | "required" | "additionalProperties" | "enum" | "pattern" | "minimum" | "maximum";

export interface SchemaError {
  /** Where the problem is; for "required" and "additionalProperties", the key's own path. */
  path: Segment[];
  keyword: SchemaKeyword;
  /** For "type": the type or types the schema asks for. */
  type?: string | readonly string[];
}

// The keywords that apply to one type only; with a single such type, a wrong type is reported
// in their place rather than before everything else (ajv's order).
const typedKeywords: Readonly<Record<string, readonly (keyof SchemaNode)[]>> = {
  number: ["maximum", "minimum"],
  string: ["pattern"],
  array: ["items"],
  object: ["required", "additionalProperties", "properties"],
};

/**
 * A schema node worked out once: references followed, patterns compiled. A plan's children are
 * planned when the plan is first visited, and a property's when data first has it, so only the
 * parts of the schema a configuration uses take memory (a microcontroller's configuration reaches
 * a fraction of it).
 */
interface Plan {
  node: SchemaNode;
  /** The one type whose own keywords the node uses, if it names just one. */
  group: string | undefined;
  pattern?: RegExp;
  /** Whether the node checks objects at all (required, properties or additionalProperties). */
  object: boolean;
  /** Set once its pattern and the children below are planned. */
  expanded: boolean;
  ref?: Plan;
  items?: Plan;
  /** The plans of `node.properties`, in the order of their keys; each made when data first has its key. */
  properties: Array<Plan | undefined>;
  keys: readonly string[];
  extra: Plan | boolean;
}

/** The plans of one schema: its definitions', shared by every `$ref` to them. */
interface Planned {
  root: SchemaNode;
  plan: Plan;
  definitions: Map<string, Plan>;
}

const noKeys: readonly string[] = [];
const noPlans: Array<Plan | undefined> = [];

// The last schema's plans, in a module variable: a firmware that preloads this module holds the
// schema in flash, where it can be no WeakMap's key, and a collection made at load is read-only.
let planned: Planned | undefined;

/** Checks `data` against `root` (which holds the definitions), filling in defaults; every problem found. */
export function checkSchema(root: SchemaNode, data: unknown): SchemaError[] {
  if (planned?.root !== root) planned = { root, plan: planOf(root), definitions: new Map() };
  const errors: SchemaError[] = [];
  visit(planned, planned.plan, data, [], errors);
  return errors;
}

/** The node a `$ref` ("#/definitions/name") points at. */
export function resolveRef(root: SchemaNode, ref: string): SchemaNode {
  const name = ref.startsWith("#/definitions/") ? ref.slice(14) : undefined;
  const node = name === undefined ? undefined : root.definitions?.[name];
  if (!node) throw new Error(`the configuration schema has no ${ref}`);
  return node;
}

function planOf(node: SchemaNode): Plan {
  const type = node.type;
  const single = typeof type === "string" ? type : type?.length === 1 ? type[0] : undefined;
  const group = single !== undefined && typedKeywords[single]?.some((k) => node[k] !== undefined) ? single : undefined;
  return {
    node,
    group,
    object: node.required !== undefined || node.properties !== undefined || node.additionalProperties !== undefined,
    expanded: false,
    pattern: undefined,
    ref: undefined,
    items: undefined,
    properties: noPlans,
    keys: noKeys,
    extra: true,
  };
}

/** Plans the children of `plan`: its reference, items, properties and additional properties. */
function expand(planned: Planned, plan: Plan): void {
  const { node } = plan;
  plan.expanded = true;
  if (node.pattern !== undefined) plan.pattern = new RegExp(node.pattern, "u");
  if (node.$ref !== undefined) {
    let target = planned.definitions.get(node.$ref);
    if (target === undefined) planned.definitions.set(node.$ref, (target = planOf(resolveRef(planned.root, node.$ref))));
    plan.ref = target;
  }
  if (node.items !== undefined) plan.items = planOf(node.items);
  if (node.properties !== undefined) {
    plan.keys = Object.keys(node.properties);
    plan.properties = plan.keys.map(() => undefined);
  }
  const extra = node.additionalProperties;
  plan.extra = typeof extra === "object" ? planOf(extra) : extra ?? true;
}

// `path` is a stack the walk pushes to and pops from; an error takes a copy of it.
function visit(planned: Planned, plan: Plan, data: unknown, path: Segment[], errors: SchemaError[]): void {
  if (!plan.expanded) expand(planned, plan);
  const { node, group } = plan;
  // A wrong type is reported first, unless one type groups the node's keywords: then where
  // that type's keywords are checked.
  if (group === undefined && node.type !== undefined && node.type.length > 0 && !isAnyType(data, node.type)) errors.push(errorAt(path, "type", node));
  if (plan.ref !== undefined) visit(planned, plan.ref, data, path, errors);
  if (node.enum !== undefined && !node.enum.includes(data)) errors.push(errorAt(path, "enum", node));
  if (node.maximum !== undefined || node.minimum !== undefined) {
    if (!isType(data, "number")) typeAt(plan, "number", path, errors);
    else {
      if (node.maximum !== undefined && (data as number) > node.maximum) errors.push(errorAt(path, "maximum", node));
      if (node.minimum !== undefined && (data as number) < node.minimum) errors.push(errorAt(path, "minimum", node));
    }
  }
  if (plan.pattern !== undefined) {
    if (typeof data !== "string") typeAt(plan, "string", path, errors);
    else if (!plan.pattern.test(data)) errors.push(errorAt(path, "pattern", node));
  }
  if (plan.items !== undefined) {
    if (Array.isArray(data)) visitItems(planned, plan.items, data, path, errors);
    else typeAt(plan, "array", path, errors);
  }
  if (plan.object) {
    if (isType(data, "object")) visitObject(planned, plan, data as Record<string, unknown>, path, errors);
    else typeAt(plan, "object", path, errors);
  }
}

/** The type error of a node whose keywords of type `of` could not be checked. */
function typeAt(plan: Plan, of: string, path: Segment[], errors: SchemaError[]): void {
  if (plan.group === of) errors.push(errorAt(path, "type", plan.node));
}

function errorAt(path: Segment[], keyword: SchemaKeyword, node: SchemaNode): SchemaError {
  return keyword === "type" ? { path: path.slice(), keyword, type: node.type } : { path: path.slice(), keyword };
}

function visitItems(planned: Planned, items: Plan, data: unknown[], path: Segment[], errors: SchemaError[]): void {
  for (let i = 0; i < data.length; i++) {
    path.push(i);
    visit(planned, items, data[i], path, errors);
    path.pop();
  }
}

function visitObject(planned: Planned, plan: Plan, data: Record<string, unknown>, path: Segment[], errors: SchemaError[]): void {
  const { keys, properties } = plan;
  const declared = plan.node.properties;
  for (let i = 0; i < keys.length; i++) {
    const fallback = declared![keys[i]!]!.default;
    if (fallback !== undefined && data[keys[i]!] === undefined) data[keys[i]!] = copy(fallback);
  }
  for (const key of plan.node.required ?? []) {
    if (data[key] === undefined) errors.push({ path: [...path, key], keyword: "required" });
  }
  if (plan.extra !== true) {
    for (const key of Object.keys(data)) {
      if (declared !== undefined && Object.prototype.hasOwnProperty.call(declared, key)) continue;
      if (plan.extra === false) errors.push({ path: [...path, key], keyword: "additionalProperties" });
      else visitAt(planned, plan.extra, data[key], key, path, errors);
    }
  }
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (data[key] === undefined) continue;
    const property = properties[i] ?? (properties[i] = planOf(declared![key]!));
    visitAt(planned, property, data[key], key, path, errors);
  }
}

function visitAt(planned: Planned, plan: Plan, data: unknown, key: string, path: Segment[], errors: SchemaError[]): void {
  path.push(key);
  visit(planned, plan, data, path, errors);
  path.pop();
}

function isAnyType(data: unknown, types: string | readonly string[]): boolean {
  if (typeof types === "string") return isType(data, types);
  for (const type of types) if (isType(data, type)) return true;
  return false;
}

function isType(data: unknown, type: string): boolean {
  switch (type) {
    case "object": return data !== null && typeof data === "object" && !Array.isArray(data);
    case "array": return Array.isArray(data);
    case "null": return data === null;
    case "integer": return typeof data === "number" && Number.isInteger(data);
    case "number": return typeof data === "number" && Number.isFinite(data);
    default: return typeof data === type;
  }
}

/** A fresh copy of a default, so that no two configurations share (and change) one object. */
function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v)]));
  }
  return value;
}
