// A part's own config, as an edit sends it, is judged first by the same parser svc-server runs it
// with: a config with errors is refused with the place of each in the request, and nothing is
// saved (fleet/check-part-config.ts then judges it with its fragments merged). Warnings (a key
// svc-server does not act on, for one) do not stop it: the machine reports them when it loads.
// The parser judges size and nesting before anything walks the config.
import { Code, parseMachineConfig, SvcError } from "../../../core/index.js";

/** How many problems a refusal lists; the rest are counted. */
const SHOWN = 5;

/** Throws InvalidArgument naming every error's place under `field`; answers the config otherwise. */
export function checkOwnConfig(field: string, config: Record<string, unknown>): Record<string, unknown> {
  const { issues } = parseMachineConfig(config);
  const errors = issues.filter((i) => i.severity === "error");
  if (errors.length === 0) return config;
  const shown = errors.slice(0, SHOWN).map((e) => `${field}${e.path === "" ? "" : e.path.startsWith("[") ? e.path : `.${e.path}`}: ${e.message}`);
  const more = errors.length > SHOWN ? `; and ${errors.length - SHOWN} more` : "";
  throw new SvcError(Code.InvalidArgument, `the config was not saved: ${shown.join("; ")}${more}`);
}
