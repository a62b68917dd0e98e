// svc-server's discovery over multicast DNS, as a running server does it: off with -disable-mdns;
// not to the network when the API port listens only on loopback (said once, with why); on the one
// interface holding the address the port is bound to; otherwise on every interface. The names
// follow the configuration. Nothing here stops svc-server serving: a failure is logged and the
// machine runs on without discovery.
import { hostname as systemHostname, networkInterfaces, type NetworkInterfaceInfo } from "node:os";
import type { Clock, ConfigListener, Logger } from "../../../../core/index.js";
import type { NetworkNames } from "./advertised-names.js";
import { advertiseScope, hasNetworkAddress, type AdvertiseScope } from "./advertise-scope.js";
import { followAdvertisedNames, type AdvertisedNamesFollower } from "./follow-advertised-names.js";
import { loadCiao } from "./load-ciao.js";
import { mdnsPortProblem } from "./mdns-port-problem.js";
import { createRpcAdvertiser } from "./rpc-advertiser.js";
import { rpcTxtFlags } from "./txt-flags.js";

export interface DiscoveryOptions {
  /** -disable-mdns. */
  readonly disabled: boolean;
  /** WebRTC is on (-webrtc): the TXT record says `webrtc` beside `grpc`. */
  readonly webrtc: boolean;
  /** Where the API port listens, as its socket reports it ("0.0.0.0", "::", "192.168.1.20"). */
  readonly listening: { readonly host: string; readonly port: number };
  /** The first configuration's names; later ones come with the configurations the machine takes. */
  readonly network: NetworkNames;
  /** svc-cloud's names for the part, once it said them. */
  readonly cloudNames: () => readonly string[];
  /** The machine's configuration events (`machine.onConfig`). */
  readonly onConfig: (listener: ConfigListener) => () => void;
  readonly log: Logger;
  readonly clock: Clock;
  readonly interfaces?: () => NodeJS.Dict<NetworkInterfaceInfo[]>;
  readonly hostname?: () => string;
}

export interface Discovery {
  /** Stops following the configuration; goodbye for every advertised name. */
  close(): Promise<void>;
}

const idle: Discovery = { close: async () => {} };

/** Starts discovery in the background; whatever happens to it, svc-server serves on. */
export function startDiscovery(options: DiscoveryOptions): Discovery {
  const { log } = options;
  if (options.disabled) {
    log.debug("not advertising over mDNS (-disable-mdns)");
    return idle;
  }
  const interfaces = options.interfaces ?? networkInterfaces;
  const scope = advertiseScope(options.listening.host, interfaces());
  if (scope.kind === "nowhere") {
    log.info(`not advertising over mDNS: ${scope.why}`);
    return idle;
  }
  // Followed from now, so no configuration taken while the port is checked goes unseen.
  const names = followAdvertisedNames({ ...options, hostname: options.hostname ?? systemHostname });
  const started = advertise(options, scope, names).catch((thrown: unknown) => {
    log.error("mDNS discovery could not start; the machine serves without it", { error: String(thrown) });
    return idle;
  });
  return {
    async close() {
      names.stop();
      await (await started).close();
    },
  };
}

async function advertise(options: DiscoveryOptions, scope: Exclude<AdvertiseScope, { kind: "nowhere" }>, names: AdvertisedNamesFollower): Promise<Discovery> {
  const { log } = options;
  const problem = await mdnsPortProblem();
  if (problem !== undefined) {
    log.error(`not advertising over mDNS: ${problem}`);
    return idle;
  }
  if (scope.kind === "everywhere" && !hasNetworkAddress((options.interfaces ?? networkInterfaces)())) {
    log.warn("no network interface has an address yet; the machine is advertised over mDNS on each as it gets one");
  }
  const advertiser = createRpcAdvertiser(await loadCiao(), { port: options.listening.port, txt: rpcTxtFlags(options.webrtc), scope, log, clock: options.clock });
  const advertiseNow = (wanted: string[]) =>
    advertiser.advertise(wanted).catch((thrown: unknown) => log.error("cannot change the names advertised over mDNS", { names: wanted, error: String(thrown) }));
  names.onChange(advertiseNow);
  void advertiseNow(names.current());
  return { close: () => advertiser.close() };
}
