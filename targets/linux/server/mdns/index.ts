// Discovery over multicast DNS: svc-server advertises its API port as `_rpc._tcp` under the
// machine's names, from one responder per process, following the configuration.
export { startDiscovery, type Discovery, type DiscoveryOptions } from "./start-discovery.js";
export { advertisedNames, type AdvertisedNames, type NameSources, type NetworkNames } from "./advertised-names.js";
export { followAdvertisedNames, type AdvertisedNamesFollower, type AdvertisedNamesOptions } from "./follow-advertised-names.js";
export { advertiseScope, hasNetworkAddress, type AdvertiseScope } from "./advertise-scope.js";
export { rpcTxtFlags } from "./txt-flags.js";
