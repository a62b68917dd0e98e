// A config with the versions its machine installs changed: `agent.version_control`, by product as
// the config names them ("svc-server", "agent"). "stable" is what an unset product follows, so
// choosing it (or nothing) removes the product's entry, and an agent section left empty goes. A
// product not named keeps what it had. The config given is not changed; whether a spec is one a
// machine can use is the config validator's to say.

/** The products as `agent.version_control` names them. */
export type VersionControlKey = "svc-server" | "agent";

export function withVersionControl(config: Record<string, unknown>, specs: Partial<Record<VersionControlKey, string>>): Record<string, unknown> {
  const { agent: oldAgent, ...rest } = config;
  const { version_control: oldControl, ...agent } = (typeof oldAgent === "object" && oldAgent !== null ? oldAgent : {}) as Record<string, unknown>;
  const control = { ...(typeof oldControl === "object" && oldControl !== null ? (oldControl as Record<string, unknown>) : {}) };
  for (const [key, spec] of Object.entries(specs)) {
    if (spec === undefined) continue;
    const text = spec.trim();
    if (text === "" || text === "stable") delete control[key];
    else control[key] = text;
  }
  const nextAgent = Object.keys(control).length > 0 ? { ...agent, version_control: control } : agent;
  return Object.keys(nextAgent).length > 0 ? { ...rest, agent: nextAgent } : rest;
}
