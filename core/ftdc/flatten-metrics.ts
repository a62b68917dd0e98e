// Nested metrics made flat the way rdk names them: keys joined with dots, every level's keys in
// sorted order (so a map's iteration order never changes the schema), booleans as 1 or 0.
// Anything that is not a number, a boolean or a nested object is left out.

export interface MetricTree {
  [key: string]: number | boolean | MetricTree | undefined;
}

export interface FlatMetrics {
  names: string[];
  values: number[];
}

export function flattenMetrics(tree: MetricTree): FlatMetrics {
  const out: FlatMetrics = { names: [], values: [] };
  walk(tree, "", out);
  return out;
}

function walk(tree: MetricTree, prefix: string, out: FlatMetrics): void {
  for (const key of Object.keys(tree).sort(byCodeUnits)) {
    const value = tree[key];
    const name = prefix === "" ? key : `${prefix}.${key}`;
    if (typeof value === "number") {
      out.names.push(name);
      out.values.push(value);
    } else if (typeof value === "boolean") {
      out.names.push(name);
      out.values.push(value ? 1 : 0);
    } else if (value !== null && typeof value === "object") {
      walk(value, name, out);
    }
  }
}

/** Go's string order: by code units (bytes for ASCII), not by locale. */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
