// The simulated access points: one object each, shared by every wifi device, that come into range
// and go out of it (a connection to one that left drops after the link timeout).
import { uptime } from "node:os";
import { AP_FLAG_PRIVACY, RSN_WPA2_PSK, WifiMode } from "./nm-enums.js";
import { NM_AP, NM_PATH, NM_WIRELESS, nmInterfaces } from "./nm-interfaces.js";
import type { Activation } from "./sim-activation.js";
import type { SimAp, SimModel } from "./sim-model.js";
import type { SimAccessPoint } from "./sim-types.js";

const spec = (name: string) => nmInterfaces[name]!;

/** The paths of the access points in range. */
export const visibleAps = (model: SimModel) => [...model.aps.values()].filter((a) => a.spec.inRange).map((a) => a.path);

function publishAp(model: SimModel, ap: SimAp, visible: boolean): void {
  const { server } = model;
  for (const device of model.devices.filter((d) => d.kind === "wifi")) {
    server.set(device.path, NM_WIRELESS, { AccessPoints: visibleAps(model) });
    server.emit(device.path, NM_WIRELESS, visible ? "AccessPointAdded" : "AccessPointRemoved", [ap.path]);
  }
  model.record({ kind: "access-point", ssid: ap.spec.ssid, visible });
}

export function addAccessPoint(model: SimModel, input: SimAccessPoint): void {
  const { server } = model;
  if (model.aps.has(input.ssid)) throw new Error(`access point ${input.ssid} already exists`);
  const n = model.nextId.ap++;
  const ap: SimAp = {
    path: `${NM_PATH}/AccessPoint/${n}`,
    spec: {
      ssid: input.ssid, strength: input.strength ?? 70, security: input.security ?? "wpa-psk",
      frequency: input.frequency ?? 2437, psk: input.psk, inRange: input.inRange ?? true,
      dhcpAddress: input.dhcpAddress ?? `192.168.${100 + n}.100/24`,
    },
  };
  const secured = ap.spec.security !== "open";
  server.add(ap.path, spec(NM_AP), {
    Flags: secured ? AP_FLAG_PRIVACY : 0, WpaFlags: 0, RsnFlags: secured ? RSN_WPA2_PSK : 0, Ssid: Buffer.from(ap.spec.ssid),
    Frequency: ap.spec.frequency, HwAddress: `02:AC:CE:55:00:${n.toString(16).padStart(2, "0").toUpperCase()}`,
    Mode: WifiMode.INFRA, MaxBitrate: 270000, Strength: ap.spec.strength, LastSeen: Math.round(uptime()),
  });
  model.aps.set(ap.spec.ssid, ap);
  if (ap.spec.inRange) publishAp(model, ap, true);
}

export function setInRange(model: SimModel, activation: Activation, ssid: string, inRange: boolean): void {
  const ap = model.aps.get(ssid);
  if (!ap) throw new Error(`no access point ${ssid}`);
  if (ap.spec.inRange === inRange) return;
  ap.spec.inRange = inRange;
  publishAp(model, ap, inRange);
  if (inRange) activation.accessPointBack(ssid);
  else activation.accessPointGone(ssid);
}
