// NetworkManager's signals as the agent's events: a device's StateChanged (with its reason in
// words), the Connectivity property changing, and access points appearing or vanishing. Device
// paths are turned into interface names through a cache; events are delivered in the order the
// signals arrived even when a name has to be looked up first.
import type { Logger } from "../../../../../core/index.js";
import type { NetworkEvent } from "../network-backend.js";
import { listDevices } from "./device-listing.js";
import { NM_PATH, type NmBus, type NmSignal } from "./nm-bus.js";
import { DEVICE_INTERFACE, NM_INTERFACE, WIRELESS_INTERFACE, connectivityName, deviceReasonWords, deviceStateName } from "./nm-constants.js";

export interface NetworkEvents {
  onEvent(listener: (event: NetworkEvent) => void): () => void;
  close(): void;
}

export function createNetworkEvents(nm: NmBus, logger: Logger): NetworkEvents {
  const listeners = new Set<(event: NetworkEvent) => void>();
  const names = new Map<string, string>();
  // NetworkManager's preparing steps all read "connecting": one event for the run of them.
  const lastState = new Map<string, string>();
  // Names are learned up front so a device that disappears can still be named in its last events.
  let queue: Promise<void> = listDevices(nm).then(
    (devices) => {
      for (const device of devices) names.set(device.path, device.interface);
    },
    () => undefined,
  );

  const emit = (event: NetworkEvent): void => {
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch (error) {
        logger.error("network event listener failed", { error: String(error) });
      }
    }
  };

  const interfaceOf = async (path: string): Promise<string> => {
    const known = names.get(path);
    if (known !== undefined) return known;
    const name = await nm.get<string>(path, DEVICE_INTERFACE, "Interface").catch(() => "");
    if (name !== "") names.set(path, name);
    return name;
  };

  const toEvent = async (signal: NmSignal): Promise<NetworkEvent | undefined> => {
    if (signal.interface === DEVICE_INTERFACE && signal.member === "StateChanged") {
      const [state, , reason] = signal.body as [number, number, number];
      const name = deviceStateName(state);
      if (lastState.get(signal.path) === name) return undefined;
      lastState.set(signal.path, name);
      const event: NetworkEvent = { kind: "device", interface: await interfaceOf(signal.path), state: name };
      if (reason !== 0) event.reason = deviceReasonWords(reason);
      return event;
    }
    if (signal.interface === WIRELESS_INTERFACE && (signal.member === "AccessPointAdded" || signal.member === "AccessPointRemoved")) {
      return { kind: "access-points" };
    }
    if (signal.path === NM_PATH && signal.interface === "org.freedesktop.DBus.Properties" && signal.member === "PropertiesChanged") {
      const [iface, changed] = signal.body as [string, Record<string, { value?: unknown }>];
      if (iface === NM_INTERFACE && changed?.Connectivity !== undefined) {
        return { kind: "connectivity", connectivity: connectivityName(Number(changed.Connectivity.value)) };
      }
    }
    if (signal.path === NM_PATH && signal.interface === NM_INTERFACE && signal.member === "DeviceAdded") {
      await interfaceOf(String(signal.body[0]));
    }
    return undefined;
  };

  const off = nm.onSignal((signal) => {
    queue = queue.then(async () => {
      const event = await toEvent(signal);
      if (event) emit(event);
    });
  });

  return {
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      off();
      listeners.clear();
    },
  };
}
