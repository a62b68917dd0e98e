// The names a part is reached by, made from its own name and its location's: `fqdn` on
// svc-cloud's domain (the host of its public address) and `local_fqdn` under `local.` of it, as
// Viam makes `<part>.<location>.viam.cloud` and `<part>.<location>.local.viam.cloud`. Each
// label is the name lowered to letters, digits and '-'; the location's label carries the start
// of its id, so two organisations' "main" locations never share a name. The part's certificate
// is issued for exactly these names.
export interface PartNames {
  fqdn: string;
  local_fqdn: string;
}

function label(name: string): string {
  const text = name.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "");
  return (text === "" ? "part" : text).slice(0, 40);
}

// svc-cloud has one public address: its domain is worked out once, not at every Config call.
let lastDomain = { publicUrl: "", domain: "" };

function domainOf(publicUrl: string): string {
  if (lastDomain.publicUrl !== publicUrl) lastDomain = { publicUrl, domain: new URL(publicUrl).hostname.replace(/^\[|\]$/g, "").replace(/:/g, "-") };
  return lastDomain.domain;
}

// Every Config call names its part; the names of the parts asking lately are kept, a bounded few.
const known = new Map<string, PartNames>();
const KNOWN_MAX = 10_000;

export function partNames(values: { partName: string; locationName: string; locationId: string; publicUrl: string }): PartNames {
  const domain = domainOf(values.publicUrl);
  const key = `${values.partName}\u0000${values.locationName}\u0000${values.locationId}\u0000${domain}`;
  const kept = known.get(key);
  if (kept !== undefined) return kept;
  const location = `${label(values.locationName)}-${values.locationId.replace(/[^a-z0-9]/gi, "").slice(0, 8).toLowerCase()}`;
  const name = `${label(values.partName)}.${location}`;
  const names = Object.freeze({ fqdn: `${name}.${domain}`, local_fqdn: `${name}.local.${domain}` });
  if (known.size >= KNOWN_MAX) known.clear();
  known.set(key, names);
  return names;
}
