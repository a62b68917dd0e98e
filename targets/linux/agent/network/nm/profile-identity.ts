// How the agent recognises the NetworkManager profiles it owns. A network labelled L in
// `additional_networks` becomes the profile with `connection.id` "svc-L" and a `connection.uuid`
// derived from L (a name-based UUID, version 5: SHA-1 of a fixed namespace and the label), so
// the same label always maps to the same profile across restarts and re-installs. A profile is
// the agent's only when both match: a user profile that happens to be called "svc-something"
// still has its own random uuid, so it is never listed, changed or removed. The hotspot profile
// uses a separate namespace, so it is never mistaken for a label.
import { createHash } from "node:crypto";

export const PROFILE_ID_PREFIX = "svc-";
export const HOTSPOT_PROFILE_ID = "svc-hotspot";

const LABEL_NAMESPACE = "5c0f3b52-8a1e-4d7e-9b8a-3e6f2c1d9a40";
const HOTSPOT_NAMESPACE = "b7e2d1c4-0f5a-4c3b-8e6d-2a9f1b0c7d35";

function nameBasedUuid(namespace: string, name: string): string {
  const hash = createHash("sha1").update(Buffer.from(namespace.replace(/-/g, ""), "hex")).update(name, "utf8").digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function profileId(label: string): string {
  return PROFILE_ID_PREFIX + label;
}

export function profileUuid(label: string): string {
  return nameBasedUuid(LABEL_NAMESPACE, label);
}

export const HOTSPOT_PROFILE_UUID = nameBasedUuid(HOTSPOT_NAMESPACE, "hotspot");

/** The label of an agent-owned profile, or undefined for anyone else's. */
export function ownedLabel(id: string, uuid: string): string | undefined {
  if (!id.startsWith(PROFILE_ID_PREFIX)) return undefined;
  const label = id.slice(PROFILE_ID_PREFIX.length);
  return label !== "" && profileUuid(label) === uuid.toLowerCase() ? label : undefined;
}
