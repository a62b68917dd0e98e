// What the agent needs to know about the server from the machine configuration: where its
// /restart_status answers, and whether a maintenance window gates its updates.
import { parseMachineConfig } from "../../../../core/index.js";

export interface ServerEndpoint {
  /** http(s)://host:port/restart_status */
  restartStatusUrl: string;
  maintenanceConfigured: boolean;
}

export const DEFAULT_BIND_ADDRESS = "localhost:8080";

/** From the configuration's text; a configuration that cannot be read gives the defaults. */
export function serverEndpointOf(configText: string | undefined): ServerEndpoint {
  const config = configText === undefined ? null : parseMachineConfig(configText).config;
  const bind = config?.network.bind_address || DEFAULT_BIND_ADDRESS;
  const tls = config !== null && !config.network.no_tls && config.network.tls_cert_file !== "" && config.network.tls_key_file !== "";
  return {
    restartStatusUrl: `${tls ? "https" : "http"}://${connectableHost(bind)}/restart_status`,
    maintenanceConfigured: config?.maintenance !== undefined,
  };
}

// A server bound to every address is reached on loopback.
function connectableHost(bind: string): string {
  const colon = bind.lastIndexOf(":");
  const host = colon < 0 ? bind : bind.slice(0, colon);
  const port = colon < 0 ? "8080" : bind.slice(colon + 1);
  if (host === "" || host === "0.0.0.0") return `127.0.0.1:${port}`;
  if (host === "::" || host === "[::]") return `[::1]:${port}`;
  return `${host}:${port}`;
}
