// The instance names svc-server advertises over mDNS: the machine's fqdn and local fqdn (svc-cloud's
// once it named the part, else the configuration's `network.fqdn` and `network.local_fqdn`), or
// its host name when it has neither. Each goes out as written and with its dots replaced by
// dashes, as viam-server does, so a client finds the machine by either spelling. A name DNS cannot
// carry (an empty label, a label over 63 bytes, a service name over 255 bytes) is left out with
// the reason: handed to the responder, it would fail only when a packet is written.

/** The configuration's own names for the machine ("" when unset). */
export interface NetworkNames {
  readonly fqdn: string;
  readonly local_fqdn: string;
}

export interface NameSources {
  /** The part's fqdn and local fqdn from svc-cloud; empty when not managed, or not heard yet. */
  readonly cloud: readonly string[];
  readonly network: NetworkNames;
}

export interface AdvertisedNames {
  /** Instance names, without duplicates (DNS compares names without case). */
  readonly names: string[];
  readonly refused: { name: string; why: string }[];
}

/** What every instance name is followed by on the wire. */
const SERVICE_DOMAIN = "._rpc._tcp.local";
const MAX_LABEL_BYTES = 63;
/** 255 bytes on the wire: each label's length byte and the root's make it the text plus two. */
const MAX_NAME_TEXT_BYTES = 253;

export function advertisedNames(sources: NameSources, hostname: string): AdvertisedNames {
  const given = sources.cloud.length > 0 ? sources.cloud : [sources.network.fqdn, sources.network.local_fqdn];
  const chosen = given.map(withoutRootDot).filter((name) => name !== "");
  const bases = chosen.length > 0 ? chosen : [withoutRootDot(hostname)].filter((name) => name !== "");
  const names: string[] = [];
  const refused: { name: string; why: string }[] = [];
  const seen = new Set<string>();
  for (const base of bases) {
    for (const name of [base, base.replaceAll(".", "-")]) {
      const key = name.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      const why = dnsProblem(name);
      if (why === undefined) names.push(name);
      else refused.push({ name, why });
    }
  }
  return { names, refused };
}

/** "robot.example.com." -> "robot.example.com". */
function withoutRootDot(name: string): string {
  return name.trim().replace(/\.+$/, "");
}

function dnsProblem(name: string): string | undefined {
  const labels = name.split(".");
  if (labels.some((label) => label === "")) return "it has an empty label (two dots in a row, or a leading dot)";
  const long = labels.find((label) => Buffer.byteLength(label) > MAX_LABEL_BYTES);
  if (long !== undefined) return `its label "${long}" is longer than ${MAX_LABEL_BYTES} bytes`;
  if (Buffer.byteLength(name) + SERVICE_DOMAIN.length > MAX_NAME_TEXT_BYTES) return `with ${SERVICE_DOMAIN} it is longer than 255 bytes`;
  return undefined;
}
