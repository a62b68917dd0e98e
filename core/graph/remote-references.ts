// References a configuration's own entries cannot settle when it joins remotes: `pi:left` names a
// resource remote `pi` lists once it is connected, and a simple name no entry carries may be a
// remote's too. Judging a configuration without its remotes, these are set aside rather than
// called missing: a reference to a configured remote silently, any other with a warning naming the
// remotes it must come from. A reference to a remote that is not configured stays, and is missing.
import type { ConfigIssue } from "../config/index.js";
import { isFullNameReference, isRemoteName } from "../resource/index.js";
import type { PlanResourceInput } from "./graph-entry.js";

export function setAsideRemoteReferences(inputs: PlanResourceInput[], remotes: readonly string[], issues: ConfigIssue[]): PlanResourceInput[] {
  if (remotes.length === 0) return inputs;
  const simple = new Set<string>();
  const full = new Set<string>();
  for (const { config } of inputs) {
    simple.add(config.name);
    full.add(`${config.api}/${config.name}`);
  }
  const nameOf = (ref: string) => (isFullNameReference(ref) ? ref.slice(ref.indexOf("/") + 1) : ref);
  const ofRemote = (ref: string) => {
    const name = nameOf(ref);
    return isRemoteName(name) && remotes.includes(name.slice(0, name.indexOf(":")));
  };
  const which = remotes.map((r) => JSON.stringify(r)).join(", ");
  return inputs.map((input) => {
    const path = input.path ?? input.config.name;
    const keep = (ref: string): boolean => {
      if (ofRemote(ref)) return false;
      if (isRemoteName(nameOf(ref)) || (isFullNameReference(ref) ? full.has(ref) : simple.has(ref))) return true;
      issues.push({
        path,
        message: `dependency ${JSON.stringify(ref)} is not configured here; it must come from remote ${which} (known once connected)`,
        severity: "warning",
      });
      return false;
    };
    const dependsOn = input.config.depends_on.filter(keep);
    const requires = (input.requires ?? []).filter(keep);
    const optional = (input.optional ?? []).filter((ref) => !ofRemote(ref));
    return { ...input, config: { ...input.config, depends_on: dependsOn }, requires, optional };
  });
}
