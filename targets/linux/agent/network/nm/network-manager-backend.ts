// NetworkBackend on NetworkManager's D-Bus API: the pieces of this folder put together behind the
// interface the provisioning logic and the captive portal are written against.
import type { Clock, Logger } from "../../../../../core/index.js";
import { createNodeClock } from "../../../logging/node-clock.js";
import type { MessageBus } from "dbus-next";
import type { ActivationResult, NetworkBackend } from "../network-backend.js";
import { activateAndWait } from "./activation.js";
import { listAccessPoints, listDevices, pickDevice, requestScans } from "./device-listing.js";
import { startHotspot, stopHotspot } from "./hotspot.js";
import { NM_PATH, openNmBus } from "./nm-bus.js";
import { NM_INTERFACE, connectivityName } from "./nm-constants.js";
import { createNetworkEvents } from "./network-events.js";
import { createProfileStore } from "./profile-store.js";

export interface NetworkManagerBackendOptions {
  /** A connected bus, or a bus address; the system bus (or DBUS_SYSTEM_BUS_ADDRESS) when absent. */
  bus?: MessageBus | string;
  logger: Logger;
  /** How long an activation may take before it counts as failed (default 90 s). */
  activationTimeoutMs?: number;
  /** How long a wifi scan is waited for (default 10 s). */
  scanTimeoutMs?: number;
  /** Real time, for those time-outs. Node's by default. */
  clock?: Clock;
}

export async function createNetworkManagerBackend(options: NetworkManagerBackendOptions): Promise<NetworkBackend> {
  const { logger } = options;
  const activationTimeoutMs = options.activationTimeoutMs ?? 90_000;
  const scanTimeoutMs = options.scanTimeoutMs ?? 10_000;
  const clock = options.clock ?? createNodeClock({ keepAlive: true });
  const nm = await openNmBus({ bus: options.bus });
  const store = createProfileStore(nm, logger);
  const events = createNetworkEvents(nm, logger);

  const activate = async (label: string): Promise<ActivationResult> => {
    const profile = await store.find(label);
    if (!profile) return { ok: false, reason: `no network profile for "${label}"` };
    const device = pickDevice(await listDevices(nm), profile.kind, profile.interfaceName);
    if (!device) {
      const wanted = profile.interfaceName === "" ? `no ${profile.kind} device` : `no device ${profile.interfaceName}`;
      return { ok: false, reason: wanted };
    }
    logger.info("activating network", { label, interface: device.interface });
    const result = await activateAndWait(nm, {
      profilePath: profile.path,
      devicePath: device.path,
      interfaceName: device.interface,
      timeoutMs: activationTimeoutMs,
      clock,
    });
    if (result.ok) logger.info("network active", { label, interface: result.interface });
    else logger.warn("network activation failed", { label, interface: device.interface, reason: result.reason });
    return result;
  };

  return {
    devices: async () =>
      (await listDevices(nm)).map(({ interface: name, kind, state, activeProfile }) =>
        activeProfile === undefined ? { interface: name, kind, state } : { interface: name, kind, state, activeProfile },
      ),
    async scan() {
      await requestScans(nm, scanTimeoutMs, clock);
      return listAccessPoints(nm);
    },
    accessPoints: () => listAccessPoints(nm),
    managedLabels: async () => (await store.list()).map((profile) => profile.label),
    async applyProfile(managed, profileOptions) {
      await store.apply(managed, profileOptions);
    },
    async removeProfile(label) {
      await store.remove(label);
    },
    activate,
    async activeLabel() {
      const [profiles, active] = await Promise.all([store.list(), store.activePaths()]);
      let best: (typeof profiles)[number] | undefined;
      for (const profile of profiles) {
        if (active.has(profile.path) && (!best || profile.priority > best.priority)) best = profile;
      }
      return best?.label;
    },
    async checkConnectivity() {
      const [value] = await nm.call(NM_PATH, NM_INTERFACE, "CheckConnectivity");
      return connectivityName(Number(value));
    },
    startHotspot: (request) => startHotspot(nm, request, activationTimeoutMs, clock),
    stopHotspot: () => stopHotspot(nm),
    onEvent: (listener) => events.onEvent(listener),
    async close() {
      events.close();
      await nm.close();
    },
  };
}
