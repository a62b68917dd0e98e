// When two entries for the same resource mean the same thing. Only what the resource is built
// from counts: its model, its attributes (key order aside) and the set of names in depends_on.
// Everything else (log_configuration, anything derived from other fields) never forces a rebuild.
import type { ResourceConfig } from "../config/index.js";

export function resourceConfigEqual(a: ResourceConfig, b: ResourceConfig): boolean {
  if (a === b) return true;
  return a.name === b.name && a.api === b.api && a.model === b.model && sameNames(a.depends_on, b.depends_on) && jsonEqual(a.attributes, b.attributes);
}

function sameNames(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  if (x.length === y.length) {
    let inOrder = true;
    for (let i = 0; i < x.length && inOrder; i++) inOrder = x[i] === y[i];
    if (inOrder) return true;
  }
  const xs = new Set(x);
  const ys = new Set(y);
  if (xs.size !== ys.size) return false;
  let same = true;
  xs.forEach((name) => {
    if (!ys.has(name)) same = false;
  });
  return same;
}

/** Deep equality of JSON values; object key order does not matter, array order does. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  const aArray = Array.isArray(a);
  if (aArray !== Array.isArray(b)) return false;
  if (aArray) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!jsonEqual(x[i], y[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let count = 0;
  for (const k in x) {
    if (!Object.prototype.hasOwnProperty.call(x, k)) continue;
    count++;
    if (!Object.prototype.hasOwnProperty.call(y, k) || !jsonEqual(x[k], y[k])) return false;
  }
  for (const k in y) if (Object.prototype.hasOwnProperty.call(y, k)) count--;
  return count === 0;
}
