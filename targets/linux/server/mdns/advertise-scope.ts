// Where the machine is advertised, from the address its API port listens on. A wildcard address
// ("0.0.0.0", or "::" for both families) is reached on every interface, so it is advertised on
// all of them; one address only on the interface holding it, since a client that found the
// machine on another could not reach it there; loopback, which no other machine reaches, nowhere.
import type { NetworkInterfaceInfo } from "node:os";
import { isLoopbackAddress, normalizeHost } from "../transport/index.js";

export type AdvertiseScope =
  | { readonly kind: "everywhere"; readonly ipv6: boolean }
  | { readonly kind: "address"; readonly address: string; readonly interface: string }
  | { readonly kind: "nowhere"; readonly why: string };

/** `host` as the listening socket reports it ("0.0.0.0", "::", "192.168.1.20"). */
export function advertiseScope(host: string, interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>): AdvertiseScope {
  if (host === "::") return { kind: "everywhere", ipv6: true };
  if (host === "0.0.0.0") return { kind: "everywhere", ipv6: false };
  const address = normalizeHost(host).replace(/^::ffff:(?=\d+\.)/, "");
  if (isLoopbackAddress(address)) return { kind: "nowhere", why: `the API port listens only on loopback (${address}), which no other machine reaches` };
  for (const [name, infos] of Object.entries(interfaces)) {
    const info = (infos ?? []).find((candidate) => normalizeHost(candidate.address) === address);
    if (info === undefined) continue;
    if (info.internal) return { kind: "nowhere", why: `the API port listens only on ${address}, an address of the loopback interface ${name}` };
    return { kind: "address", address: info.address, interface: name };
  }
  return { kind: "nowhere", why: `no network interface holds ${address}, the address the API port listens on` };
}

/** True when some interface other than loopback has an address: there is a network to advertise on. */
export function hasNetworkAddress(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>): boolean {
  return Object.values(interfaces).some((infos) => (infos ?? []).some((info) => !info.internal));
}
