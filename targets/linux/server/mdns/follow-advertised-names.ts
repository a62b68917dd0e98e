// The instance names to advertise, kept current from the moment discovery starts: computed from
// the first configuration, then again from each configuration the machine takes, with svc-cloud's
// names read each time (they come with its configurations). A name that cannot be advertised is
// said once, not again at every configuration.
import type { ConfigListener, Logger } from "../../../../core/index.js";
import { advertisedNames, type NetworkNames } from "./advertised-names.js";

export interface AdvertisedNamesOptions {
  /** The first configuration's names. */
  readonly network: NetworkNames;
  readonly cloudNames: () => readonly string[];
  readonly onConfig: (listener: ConfigListener) => () => void;
  readonly hostname: () => string;
  readonly log: Logger;
}

export interface AdvertisedNamesFollower {
  /** The names to advertise now. */
  current(): string[];
  /** `listener` hears the names after each configuration taken from now on. */
  onChange(listener: (names: string[]) => void): void;
  /** Stops following the configuration. */
  stop(): void;
}

export function followAdvertisedNames(options: AdvertisedNamesOptions): AdvertisedNamesFollower {
  let network = options.network;
  let refusedSaid = "[]";
  let changed: ((names: string[]) => void) | undefined;

  function current(): string[] {
    const { names, refused } = advertisedNames({ cloud: options.cloudNames(), network }, options.hostname());
    const refusedNow = JSON.stringify(refused);
    if (refusedNow !== refusedSaid) {
      for (const { name, why } of refused) options.log.warn("cannot advertise this name over mDNS", { name, why });
      refusedSaid = refusedNow;
    }
    return names;
  }

  const stop = options.onConfig((event) => {
    if (event.kind !== "accepted") return;
    network = event.running.config.network;
    changed?.(current());
  });
  return {
    current,
    onChange: (listener) => {
      changed = listener;
    },
    stop,
  };
}
