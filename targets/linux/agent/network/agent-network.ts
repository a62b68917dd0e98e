// The agent's network management, assembled: NetworkManager over the system bus, the network
// controller (profiles, provisioning, reboot) and the captive portal on the hotspot. A device
// without NetworkManager (or with `disable_network_configuration`) runs the agent without it,
// and the log says why.
import { hostname } from "node:os";
import type { AgentConfig, Logger } from "../../../../core/index.js";
import type { CommandRunner } from "../../system/index.js";
import type { AgentClocks } from "../agent-clock.js";
import { writeIfChanged } from "../../system/atomic-file.js";
import { hasMachineCredentials, saveMachineCredentials } from "./machine-credentials.js";
import { createNetworkManagerBackend } from "./nm/index.js";
import { createCaptivePortalSeam } from "./portal/index.js";
import { createNetworkController, createSystemReboot, type NetworkController } from "./provisioning/index.js";

// NetworkManager's hotspot runs dnsmasq for DHCP and DNS on the hotspot address; its DNS must
// give way to the portal's responder, which answers every name with the device.
export const DNSMASQ_SHARED_CONF = "/etc/NetworkManager/dnsmasq-shared.d/svc-agent.conf";
const DNSMASQ_SHARED_TEXT = "# Written by svc-agent: the provisioning portal answers DNS on the hotspot itself.\nport=0\n";

export interface AgentNetworkOptions {
  settings(): AgentConfig;
  configFile: string;
  /** Root prefix for system files. */
  system(path: string): string;
  run: CommandRunner;
  /** Provisioning runs on the agent clock, D-Bus time-outs on real time. */
  clocks: AgentClocks;
  logger: Logger;
}

export interface AgentNetwork {
  reconfigure(): Promise<void>;
  close(): Promise<void>;
}

export async function startAgentNetwork(options: AgentNetworkOptions): Promise<AgentNetwork | undefined> {
  const log = options.logger;
  if (options.settings().advanced_settings.disable_network_configuration) {
    log.info("network configuration is disabled (disable_network_configuration)");
  }
  let backend;
  try {
    backend = await createNetworkManagerBackend({ logger: log, activationTimeoutMs: 90_000, scanTimeoutMs: 10_000, clock: options.clocks.real });
  } catch (error) {
    log.warn(`network management is off: NetworkManager cannot be reached on the system bus (${(error as Error).message})`);
    return undefined;
  }
  try {
    writeIfChanged(options.system(DNSMASQ_SHARED_CONF), DNSMASQ_SHARED_TEXT);
  } catch (error) {
    log.warn(`the hotspot's DNS may not reach the portal: ${(error as Error).message}`);
  }
  const controller: NetworkController = createNetworkController({
    backend,
    settings: options.settings,
    hostname: hostname(),
    clock: options.clocks.agent,
    reboot: createSystemReboot({ run: options.run, logger: log }),
    logger: log,
    portal: createCaptivePortalSeam({
      needsCredentials: () => !hasMachineCredentials(options.configFile),
      saveCredentials: (credentials) => saveMachineCredentials(options.configFile, credentials),
      logger: log.child("portal"),
    }),
  });
  await controller.start();
  return {
    reconfigure: () => controller.reconfigure(),
    async close() {
      await controller.close();
      await backend.close();
    },
  };
}
