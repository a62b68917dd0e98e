// The access rules of the API port (transport/cors.ts) as a configuration states them: tokens are
// required exactly when an api-key handler is configured, and the names and origins come from
// `network`. One rules object per configuration object, so the port compiles them once.
import type { MachineConfig } from "../../../../core/index.js";
import type { AccessRules } from "../transport/index.js";

export function browserAccessRules(current: () => MachineConfig): () => AccessRules {
  let seen: MachineConfig | undefined;
  let rules: AccessRules | undefined;
  return () => {
    const config = current();
    if (config !== seen || !rules) {
      const { network, auth } = config;
      rules = {
        tokensRequired: auth.handlers.some((handler) => handler.type === "api-key"),
        hostNames: [network.fqdn, network.local_fqdn, ...network.allowed_hosts].filter((name) => name !== ""),
        corsOrigins: network.cors_origins,
      };
      seen = config;
    }
    return rules;
  };
}
