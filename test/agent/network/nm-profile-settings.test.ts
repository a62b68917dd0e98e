// The profiles the NetworkManager backend writes, built without NetworkManager: which settings a
// network becomes, how the agent's profiles are recognised, and that a password never shows in
// what is logged.
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { Variant } from "dbus-next";
import type { AdditionalNetwork } from "../../../core/index.js";
import {
  buildHotspotSettings,
  buildProfileSettings,
  changedFields,
  maskedSettings,
  ownedLabel,
  profileId,
  profileUuid,
} from "../../../targets/linux/agent/network/nm/index.js";

function network(fields: Partial<AdditionalNetwork>): AdditionalNetwork {
  return {
    type: "wifi",
    interface: "",
    ssid: "",
    psk: "",
    priority: 0,
    ipv4_address: "auto",
    ipv4_gateway: "",
    ipv4_dns: [],
    ipv4_route_metric: 600,
    ...fields,
  };
}

describe("profile settings", () => {
  test("a wifi network with a password becomes a WPA-PSK profile with the ssid as bytes", () => {
    const settings = buildProfileSettings(
      { label: "home", network: network({ ssid: "Café", psk: "correct horse", priority: 20, interface: "wlan0" }) },
      { wifiPowerSave: null },
    );
    expect(maskedSettings(settings)).toEqual({
      connection: {
        id: "svc-home",
        uuid: profileUuid("home"),
        type: "802-11-wireless",
        autoconnect: true,
        "autoconnect-priority": 20,
        "interface-name": "wlan0",
      },
      "802-11-wireless": { ssid: [...Buffer.from("Café", "utf8")], mode: "infrastructure" },
      "802-11-wireless-security": { "key-mgmt": "wpa-psk", psk: "********" },
      ipv4: { method: "auto", "route-metric": 600 },
    });
    expect(settings["802-11-wireless-security"]!.psk!.value).toBe("correct horse");
    expect(JSON.stringify(maskedSettings(settings))).not.toContain("correct horse");
  });

  test("an open wifi network has no security section; power save is 3 on, 2 off, absent when unset", () => {
    const open = { label: "cafe", network: network({ ssid: "free" }) };
    expect(buildProfileSettings(open, { wifiPowerSave: null })["802-11-wireless-security"]).toBeUndefined();
    expect(buildProfileSettings(open, { wifiPowerSave: null })["802-11-wireless"]!.powersave).toBeUndefined();
    expect(buildProfileSettings(open, { wifiPowerSave: true })["802-11-wireless"]!.powersave).toEqual(new Variant("u", 3));
    expect(buildProfileSettings(open, { wifiPowerSave: false })["802-11-wireless"]!.powersave).toEqual(new Variant("u", 2));
  });

  test("a static wired network carries address, gateway, DNS in network byte order and its metric", () => {
    const settings = buildProfileSettings(
      {
        label: "lab",
        network: network({
          type: "wired",
          ipv4_address: "192.168.1.20/24",
          ipv4_gateway: "192.168.1.1",
          ipv4_dns: ["192.168.1.1", "8.8.4.4"],
          ipv4_route_metric: 100,
        }),
      },
      { wifiPowerSave: true },
    );
    const flat = maskedSettings(settings);
    expect(flat["802-3-ethernet"]).toEqual({});
    expect(flat["802-11-wireless"]).toBeUndefined();
    expect(flat.ipv4).toEqual({
      method: "manual",
      "address-data": [{ address: "192.168.1.20", prefix: 24 }],
      gateway: "192.168.1.1",
      dns: [...settings.ipv4!.dns!.value],
      "route-metric": 100,
    });
    // Network byte order: the uint32's bytes in memory are the address's bytes.
    const bytes = new Uint8Array(new Uint32Array(settings.ipv4!.dns!.value as number[]).buffer);
    expect([...bytes]).toEqual([192, 168, 1, 1, 8, 8, 4, 4]);
  });

  test("a wrong address is reported with where it is", () => {
    expect(() => buildProfileSettings({ label: "x", network: network({ ipv4_address: "10.0.0.300/24" }) }, { wifiPowerSave: null })).toThrow(
      "additional_networks.x.ipv4_address",
    );
  });

  test("the hotspot is an access point with shared IPv4 and WPA2", () => {
    const flat = maskedSettings(buildHotspotSettings({ interface: "", ssid: "svc-setup-robot", password: "12345678" }, "wlan0"));
    expect(flat["802-11-wireless"]).toEqual({ ssid: [...Buffer.from("svc-setup-robot")], mode: "ap" });
    expect(flat.ipv4).toEqual({ method: "shared" });
    expect(flat["802-11-wireless-security"]).toMatchObject({ "key-mgmt": "wpa-psk", psk: "********" });
    expect((flat.connection as Record<string, unknown>)["interface-name"]).toBe("wlan0");
    expect(ownedLabel(String((flat.connection as Record<string, unknown>).id), String((flat.connection as Record<string, unknown>).uuid))).toBeUndefined();
  });
});

describe("profile ownership", () => {
  test("a label always maps to the same id and uuid, and only that pair is the agent's", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40 }), fc.uuid(), (label, otherUuid) => {
        const uuid = profileUuid(label);
        expect(uuid).toBe(profileUuid(label));
        expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(ownedLabel(profileId(label), uuid)).toBe(label);
        if (otherUuid !== uuid) expect(ownedLabel(profileId(label), otherUuid)).toBeUndefined();
        expect(ownedLabel(label, uuid)).toBe(label.startsWith("svc-") && profileUuid(label.slice(4)) === uuid ? label.slice(4) : undefined);
      }),
    );
  });
});

describe("profile comparison", () => {
  const wanted = buildProfileSettings(
    { label: "lab", network: network({ type: "wired", ipv4_address: "10.0.0.2/24", ipv4_gateway: "10.0.0.1", ipv4_route_metric: 100 }) },
    { wifiPowerSave: null },
  );
  // What NetworkManager 1.42 answers for that profile: defaults left out, extra keys of its own.
  const stored = {
    connection: { id: "svc-lab", uuid: profileUuid("lab"), type: "802-3-ethernet", permissions: [], timestamp: 1n },
    "802-3-ethernet": { "auto-negotiate": false, "mac-address-blacklist": [] },
    ipv4: {
      "address-data": [{ address: "10.0.0.2", prefix: 24 }],
      addresses: [[33554442, 24, 16777226]],
      dns: [],
      "dns-search": [],
      gateway: "10.0.0.1",
      method: "manual",
      "route-metric": 100n,
    },
    ipv6: { method: "auto" },
  };

  test("a stored profile equal in every owned field is unchanged", () => {
    expect(changedFields(wanted, stored)).toEqual([]);
  });

  test("a changed owned field is named", () => {
    const moved = { ...stored, ipv4: { ...stored.ipv4, "address-data": [{ address: "10.0.0.5", prefix: 24 }], "route-metric": 250n } };
    expect(changedFields(wanted, moved)).toEqual(["ipv4.address-data", "ipv4.route-metric"]);
    const pinned = { ...stored, connection: { ...stored.connection, "interface-name": "eth1", "autoconnect-priority": 4 } };
    expect(changedFields(wanted, pinned)).toEqual(["connection.interface-name", "connection.autoconnect-priority"]);
  });
});
