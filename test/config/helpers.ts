// Small helpers for the configuration tests: reach into nested data by the issue path syntax
// (`agent.additional_networks.home.priority`, `components[0].name`).
import { parseMachineConfig, type ConfigIssue, type MachineConfig } from "../../core/index.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function segments(path: string): Array<string | number> {
  const out: Array<string | number> = [];
  for (const part of path.match(/[^.[\]]+|\[\d+\]/g) ?? []) {
    out.push(part.startsWith("[") ? Number(part.slice(1, -1)) : part);
  }
  return out;
}

export function getAt(data: unknown, path: string): unknown {
  let at = data as Record<string | number, unknown> | undefined;
  for (const segment of segments(path)) at = at?.[segment] as Record<string | number, unknown> | undefined;
  return at;
}

/** A deep copy of `data` with `value` at `path` (objects and arrays made on the way). */
export function withValue(data: Json, path: string, value: Json | undefined): Json {
  const copy = JSON.parse(JSON.stringify(data)) as Json;
  const parts = segments(path);
  let at = copy as Record<string | number, Json>;
  parts.slice(0, -1).forEach((segment, i) => {
    if (at[segment] === undefined) at[segment] = typeof parts[i + 1] === "number" ? [] : {};
    at = at[segment] as Record<string | number, Json>;
  });
  const last = parts[parts.length - 1]!;
  if (value === undefined) delete at[last];
  else at[last] = value;
  return copy;
}

export function parse(input: string | object): { config: MachineConfig; issues: ConfigIssue[] } {
  const { config, issues } = parseMachineConfig(input);
  if (config === null) throw new Error(`no configuration: ${JSON.stringify(issues)}`);
  return { config, issues };
}

export const error = (path: string, message: string): ConfigIssue => ({ path, message, severity: "error" });
export const warning = (path: string, message: string): ConfigIssue => ({ path, message, severity: "warning" });
