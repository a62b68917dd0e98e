// The portal as the network controller drives it: each hotspot period gets a fresh portal on the
// hotspot's address, built from the controller's session plus what only the agent knows (whether
// the device has machine credentials, and how to save them).
import type { Logger } from "../../../../../core/index.js";
import type { PortalSeam, PortalSession } from "../provisioning/index.js";
import type { MachineCredentials } from "./provisioning-input.js";
import { createProvisioningPortal, type ProvisioningPortal } from "./provisioning-portal.js";

export interface CaptivePortalSeamOptions {
  /** Asked at each start: credentials may have been saved during an earlier hotspot period. */
  needsCredentials(): boolean;
  saveCredentials?(credentials: MachineCredentials): Promise<void>;
  logger: Logger;
  /** Defaults 80 and 53; tests pass 0. */
  httpPort?: number;
  dnsPort?: number;
  /** Called with the ports once a portal listens (tests use it to find them). */
  onListening?(ports: { httpPort: number; dnsPort: number }): void;
}

export function createCaptivePortalSeam(options: CaptivePortalSeamOptions): PortalSeam {
  let current: ProvisioningPortal | undefined;

  async function stop(): Promise<void> {
    const portal = current;
    current = undefined;
    await portal?.stop();
  }

  return {
    async start(session: PortalSession) {
      await stop();
      const portal = createProvisioningPortal({
        host: session.address,
        httpPort: options.httpPort,
        dnsPort: options.dnsPort,
        manufacturer: session.manufacturer,
        model: session.model,
        fragmentId: session.fragmentId,
        redirectAll: session.redirectAll,
        needsCredentials: options.needsCredentials(),
        lastError: session.lastError,
        scan: session.scan,
        submit: session.submit,
        saveCredentials: options.saveCredentials,
        onUserActivity: session.onUserActivity,
        logger: options.logger,
      });
      current = portal;
      try {
        const ports = await portal.start();
        options.onListening?.(ports);
      } catch (err) {
        if (current === portal) current = undefined;
        throw err;
      }
    },
    // Closes connections rather than waiting for them: the call may come from a submit whose
    // request is still open, and that request cannot finish before the stop does.
    stop,
  };
}
