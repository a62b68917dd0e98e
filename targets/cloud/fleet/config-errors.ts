// A config put together from a part and its fragments is judged by the same parser svc-server
// runs it with: errors refuse the change that would make it, with their places; warnings do not.
import { Code, parseMachineConfig, SvcError } from "../../../core/index.js";

const SHOWN = 5;

export function refuseConfigErrors(label: string, config: Record<string, unknown>): void {
  const errors = parseMachineConfig(config).issues.filter((i) => i.severity === "error");
  if (errors.length === 0) return;
  const shown = errors.slice(0, SHOWN).map((e) => `${e.path === "" ? "(the config)" : e.path}: ${e.message}`);
  const more = errors.length > SHOWN ? `; and ${errors.length - SHOWN} more` : "";
  throw new SvcError(Code.InvalidArgument, `${label}, with its fragments merged, has errors: ${shown.join("; ")}${more}`);
}
