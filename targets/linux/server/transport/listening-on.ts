// What a listening socket really listens on, said as a person reads it. A wildcard address is
// not a place a client goes: "::" (the ":8080" form, dual-stack as Node opens it) is every IPv4
// and every IPv6 interface, "0.0.0.0" every IPv4 one; any other address is itself.
import type { AddressInfo } from "node:net";

export interface ListeningOn {
  /** One URL per address family listened on: ["http://0.0.0.0:8080", "http://[::]:8080"]. */
  readonly urls: readonly string[];
  /** "every interface", "every IPv4 interface", or undefined for one address. */
  readonly scope: string | undefined;
}

export function listeningOn(address: AddressInfo, scheme: "http" | "https"): ListeningOn {
  const at = (host: string) => `${scheme}://${host}:${address.port}`;
  if (address.address === "::") return { urls: [at("0.0.0.0"), at("[::]")], scope: "every interface" };
  if (address.address === "0.0.0.0") return { urls: [at("0.0.0.0")], scope: "every IPv4 interface" };
  return { urls: [at(address.family === "IPv6" ? `[${address.address}]` : address.address)], scope: undefined };
}

/** "http://0.0.0.0:8080 and http://[::]:8080 (every interface)", "http://127.0.0.1:8080". */
export function formatListeningOn(on: ListeningOn): string {
  const urls = on.urls.join(" and ");
  return on.scope === undefined ? urls : `${urls} (${on.scope})`;
}
