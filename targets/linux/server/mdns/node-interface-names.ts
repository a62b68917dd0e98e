// ciao finds a Linux machine's interfaces by running `ip -o link show` and reading the names it
// prints. veth and VLAN links print as `name@peer` (`eth0@if12` in every container), names Node's
// os.networkInterfaces() does not know, so ciao would skip them and never advertise there. ciao
// has a fallback of its own for machines without `ip`: the interfaces Node reports with an
// address. svc-server has it use that fallback always, which also spares a process every 15 s.
import type { Ciao } from "./load-ciao.js";

interface InterfaceNameSource {
  getLinuxNetworkInterfaces(): Promise<string[]>;
  assumeNetworkInterfaceNames(): string[];
}

/** Makes ciao read the interfaces Node reports; the same on every call. */
export function listInterfacesFromNode(ciao: Ciao): void {
  const source = ciao.NetworkManager as unknown as InterfaceNameSource;
  source.getLinuxNetworkInterfaces = () => Promise.resolve(source.assumeNetworkInterfaceNames());
}
