// The access rules of the API port (transport/cors.ts) as a configuration states them: tokens are
// required exactly when an api-key handler is configured, and the names and origins come from
// `network`, beside the names svc-cloud gives a cloud-managed machine. One rules object per
// configuration object and set of names, so the port compiles them once.
import type { MachineConfig } from "../../../../core/index.js";
import type { AccessRules } from "../transport/index.js";

export function browserAccessRules(current: () => MachineConfig, cloudNames: () => string[] = () => []): () => AccessRules {
  let seen: MachineConfig | undefined;
  let seenNames = "";
  let rules: AccessRules | undefined;
  return () => {
    const config = current();
    const names = cloudNames();
    if (config !== seen || names.join(" ") !== seenNames || !rules) {
      const { network, auth } = config;
      rules = {
        tokensRequired: auth.handlers.some((handler) => handler.type === "api-key"),
        hostNames: [network.fqdn, network.local_fqdn, ...network.allowed_hosts, ...names].filter((name) => name !== ""),
        corsOrigins: network.cors_origins,
      };
      seen = config;
      seenNames = names.join(" ");
    }
    return rules;
  };
}
