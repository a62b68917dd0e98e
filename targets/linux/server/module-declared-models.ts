// The models a configured module declares before it runs. A module may keep a meta.json beside its
// executable, as published modules do: { "models": [ { "api": "rdk:component:sensor", "model":
// "acme:demo:thermometer" } ] }. Without one (a registry module, or a local one without the
// file) its models are known only once it runs and says which it serves.
import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { ModuleConfig } from "../../../core/index.js";

export type DeclaredModels =
  | { known: true; file: string; models: Set<string> }
  | { known: false; problem?: string };

/** `api model`, the key `models` holds. */
export const modelKey = (api: string, model: string) => `${api} ${model}`;

export function declaredModels(module: ModuleConfig, configDir: string): DeclaredModels {
  if (module.type !== "local" || module.executable_path === "") return { known: false };
  const executable = isAbsolute(module.executable_path) ? module.executable_path : resolve(configDir, module.executable_path);
  const file = join(dirname(executable), "meta.json");
  if (!existsSync(file)) return { known: false };
  let meta: unknown;
  try {
    meta = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    return { known: false, problem: `${file} cannot be read: ${(e as Error).message}` };
  }
  const list = (meta as { models?: unknown } | null)?.models;
  if (!Array.isArray(list)) return { known: false, problem: `${file} has no "models" list` };
  const models = new Set<string>();
  for (const item of list) {
    const { api, model } = (item ?? {}) as { api?: unknown; model?: unknown };
    if (typeof api !== "string" || typeof model !== "string") {
      return { known: false, problem: `${file}: each of "models" needs an "api" and a "model"` };
    }
    models.add(modelKey(api, model));
  }
  return { known: true, file, models };
}
