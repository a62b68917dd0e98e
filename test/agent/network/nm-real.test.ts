// The NetworkManager backend against the real NetworkManager over real D-Bus, inside network
// namespaces made for each test (test/helpers/nm-netns.ts). What a test asserts is what the
// namespace shows (`ip -n`) or what NetworkManager itself reports.
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { Variant, sessionBus, type MessageBus } from "dbus-next";
import { createCollectingSink, createLogEngine, parseMachineConfig, type AdditionalNetwork, type CollectingSink } from "../../../core/index.js";
import { createNodeClock } from "../../../targets/linux/logging/index.js";
import { createNetworkManagerBackend } from "../../../targets/linux/agent/network/nm/index.js";
import type { NetworkBackend, NetworkEvent } from "../../../targets/linux/agent/network/network-backend.js";
import { eventually } from "../../helpers/eventually.js";
import { startNmNetns, type NmNetns, type NmNetnsOptions } from "../../helpers/nm-netns.js";

const NM = "org.freedesktop.NetworkManager";
const NO_POWER_SAVE_CHOICE = { wifiPowerSave: null };

/** additional_networks as the agent gets them: through the configuration parser, defaults filled in. */
function parsedNetworks(networks: Record<string, Record<string, unknown>>): Record<string, AdditionalNetwork> {
  const { config, issues } = parseMachineConfig(JSON.stringify({ agent: { additional_networks: networks } }));
  expect(issues.filter((issue) => issue.severity === "error")).toEqual([]);
  return config!.agent.additional_networks;
}

interface World {
  netns: NmNetns;
  backend: NetworkBackend;
  sink: CollectingSink;
  bus: MessageBus;
}

describe("NetworkManager backend on the real NetworkManager", () => {
  const worlds: World[] = [];

  async function world(options: NmNetnsOptions = {}): Promise<World> {
    const netns = await startNmNetns(options);
    const sink = createCollectingSink();
    const logger = createLogEngine({ clock: createNodeClock(), sink, debug: true }).logger("svc-agent.network");
    const backend = await createNetworkManagerBackend({ bus: netns.busAddress, logger, activationTimeoutMs: 30_000 });
    const bus = sessionBus({ busAddress: netns.busAddress });
    const made = { netns, backend, sink, bus };
    worlds.push(made);
    return made;
  }

  afterEach(async () => {
    for (const made of worlds.splice(0)) {
      made.bus.disconnect();
      await made.backend.close();
      await made.netns.stop();
    }
  });

  async function settingsApi(bus: MessageBus) {
    const settings = await bus.getProxyObject(NM, "/org/freedesktop/NetworkManager/Settings");
    return settings.getInterface("org.freedesktop.NetworkManager.Settings");
  }

  async function profileIds(bus: MessageBus): Promise<string[]> {
    const api = await settingsApi(bus);
    const paths = (await api.ListConnections()) as string[];
    const ids: string[] = [];
    for (const path of paths) {
      const connection = (await bus.getProxyObject(NM, path)).getInterface("org.freedesktop.NetworkManager.Settings.Connection");
      const settings = (await connection.GetSettings()) as Record<string, Record<string, Variant>>;
      ids.push(String(settings.connection!.id!.value));
    }
    return ids.sort();
  }

  test("a wired profile with static IPv4, gateway, DNS and the default route metric shows up in the namespace", async () => {
    const { netns, backend, sink, bus } = await world();
    const networks = parsedNetworks({
      office: {
        type: "wired",
        interface: "eth0",
        priority: 5,
        ipv4_address: "10.200.0.2/24",
        ipv4_gateway: "10.200.0.1",
        ipv4_dns: ["10.200.0.1", "9.9.9.9"],
        ipv4_route_metric: 0,
      },
    });
    expect(networks.office!.ipv4_route_metric).toBe(100);

    await backend.applyProfile({ label: "office", network: networks.office! }, NO_POWER_SAVE_CHOICE);
    expect(await backend.managedLabels()).toEqual(["office"]);
    expect(await backend.activate("office")).toEqual({ ok: true, interface: "eth0" });

    expect(netns.ip("-4", "addr", "show", "dev", "eth0")).toContain("inet 10.200.0.2/24");
    expect(netns.ip("-4", "route", "show", "default")).toMatch(/default via 10\.200\.0\.1 dev eth0 .*metric 100/);
    expect(await backend.activeLabel()).toBe("office");
    expect(await backend.devices()).toContainEqual({ interface: "eth0", kind: "wired", state: "connected", activeProfile: "svc-office" });

    // The DNS servers in the settings NetworkManager applied to the device, in order.
    const nm = (await bus.getProxyObject(NM, "/org/freedesktop/NetworkManager")).getInterface("org.freedesktop.NetworkManager");
    const devicePath = (await nm.GetDeviceByIpIface("eth0")) as string;
    const device = (await bus.getProxyObject(NM, devicePath)).getInterface("org.freedesktop.NetworkManager.Device");
    const [applied] = (await device.GetAppliedConnection(0)) as [Record<string, Record<string, Variant>>];
    expect(applied.ipv4!["dns-data"]!.value).toEqual(["10.200.0.1", "9.9.9.9"]);

    // Applying the same network again writes nothing.
    await backend.applyProfile({ label: "office", network: networks.office! }, NO_POWER_SAVE_CHOICE);
    expect(sink.entries.filter((entry) => entry.message === "updated network profile")).toEqual([]);
    expect(sink.entries.filter((entry) => entry.message === "added network profile")).toHaveLength(1);
  });

  test("of two wired profiles for one device, the higher priority one is the one NetworkManager brings up", async () => {
    const { netns, backend } = await world();
    // Profiles are chosen when a device becomes available: unplug, configure, plug in.
    netns.peerIp("link", "set", "eth0p", "down");
    await eventually(async () => ((await backend.devices()).some((d) => d.interface === "eth0" && d.state === "unavailable") ? true : undefined), "eth0 without carrier");
    const networks = parsedNetworks({
      backup: { type: "wired", interface: "eth0", priority: 1, ipv4_address: "10.200.0.3/24" },
      main: { type: "wired", interface: "eth0", priority: 10, ipv4_address: "10.200.0.4/24" },
    });
    await backend.applyProfile({ label: "backup", network: networks.backup! }, NO_POWER_SAVE_CHOICE);
    await backend.applyProfile({ label: "main", network: networks.main! }, NO_POWER_SAVE_CHOICE);
    expect((await backend.managedLabels()).sort()).toEqual(["backup", "main"]);
    netns.peerIp("link", "set", "eth0p", "up");

    await eventually(async () => ((await backend.activeLabel()) === "main" ? true : undefined), "the priority 10 profile to be active");
    expect(netns.ip("-4", "addr", "show", "dev", "eth0")).toContain("inet 10.200.0.4/24");
    expect(netns.ip("-4", "addr", "show", "dev", "eth0")).not.toContain("10.200.0.3");
  });

  test("with two links up, the active label reported is the higher priority one", async () => {
    const { netns, backend } = await world({ links: 2 });
    const networks = parsedNetworks({
      first: { type: "wired", interface: "eth0", priority: -3, ipv4_address: "10.200.0.2/24", ipv4_gateway: "10.200.0.1" },
      second: { type: "wired", interface: "eth1", priority: 7, ipv4_address: "10.200.1.2/24", ipv4_gateway: "10.200.1.1" },
    });
    for (const [label, network] of Object.entries(networks)) await backend.applyProfile({ label, network }, NO_POWER_SAVE_CHOICE);
    expect((await backend.activate("first")).ok).toBe(true);
    expect((await backend.activate("second")).ok).toBe(true);
    expect(await backend.activeLabel()).toBe("second");
    // Both default routes exist, each with its wired default metric.
    const routes = netns.ip("-4", "route", "show", "default");
    expect(routes).toMatch(/default via 10\.200\.0\.1 dev eth0 .*metric 100/);
    expect(routes).toMatch(/default via 10\.200\.1\.1 dev eth1 .*metric 100/);
  });

  test("the connectivity check reads full, limited and portal from what the network answers", async () => {
    const { netns, backend } = await world();
    const networks = parsedNetworks({
      uplink: { type: "wired", interface: "eth0", ipv4_address: "10.200.0.2/24", ipv4_gateway: "10.200.0.1" },
    });
    await backend.applyProfile({ label: "uplink", network: networks.uplink! }, NO_POWER_SAVE_CHOICE);
    expect((await backend.activate("uplink")).ok).toBe(true);
    const seen: NetworkEvent[] = [];
    const unsubscribe = backend.onEvent((event) => seen.push(event));

    expect(await backend.checkConnectivity()).toBe("full");
    await netns.setInternet("limited");
    expect(await backend.checkConnectivity()).toBe("limited");
    await eventually(() => (seen.some((event) => event.kind === "connectivity" && event.connectivity === "limited") ? true : undefined), "a limited connectivity event");
    await netns.setInternet("portal");
    expect(await backend.checkConnectivity()).toBe("portal");
    await netns.setInternet("full");
    expect(await backend.checkConnectivity()).toBe("full");
    unsubscribe();
  });

  test("a profile the user added is never listed, changed or removed", async () => {
    const { netns, backend, bus } = await world();
    const api = await settingsApi(bus);
    // A user profile, even one whose name looks like the agent's.
    for (const id of ["home", "svc-lookalike"]) {
      await api.AddConnection({
        connection: {
          id: new Variant("s", id),
          uuid: new Variant("s", id === "home" ? "1b4e28ba-2fa1-41d2-883f-0016d3cca427" : "2c5f39cb-3fb2-42e3-994f-1127e4ddb538"),
          type: new Variant("s", "802-3-ethernet"),
          autoconnect: new Variant("b", false),
          "interface-name": new Variant("s", "eth0"),
        },
        ipv4: {
          method: new Variant("s", "manual"),
          "address-data": new Variant("aa{sv}", [{ address: new Variant("s", "10.200.0.9"), prefix: new Variant("u", 24) }]),
        },
      });
    }
    expect(await backend.managedLabels()).toEqual([]);

    const networks = parsedNetworks({ lab: { type: "wired", interface: "eth0", ipv4_address: "10.200.0.2/24" } });
    await backend.applyProfile({ label: "lab", network: networks.lab! }, NO_POWER_SAVE_CHOICE);
    await backend.removeProfile("lookalike");
    await backend.removeProfile("home");
    expect(await backend.managedLabels()).toEqual(["lab"]);
    expect(await profileIds(bus)).toEqual(["home", "svc-lab", "svc-lookalike"]);
    await backend.removeProfile("lab");
    expect(await profileIds(bus)).toEqual(["home", "svc-lookalike"]);
    expect(netns.ip("-4", "addr", "show", "dev", "eth0")).not.toContain("10.200.0.9");
  });

  test("removing a label removes its profile and its address", async () => {
    const { netns, backend, bus } = await world();
    const networks = parsedNetworks({ temp: { type: "wired", interface: "eth0", ipv4_address: "10.200.0.7/24" } });
    await backend.applyProfile({ label: "temp", network: networks.temp! }, NO_POWER_SAVE_CHOICE);
    expect((await backend.activate("temp")).ok).toBe(true);
    expect(netns.ip("-4", "addr", "show", "dev", "eth0")).toContain("10.200.0.7/24");

    await backend.removeProfile("temp");
    expect(await backend.managedLabels()).toEqual([]);
    expect(await profileIds(bus)).toEqual([]);
    await eventually(() => (netns.ip("-4", "addr", "show", "dev", "eth0").includes("10.200.0.7") ? undefined : true), "the address to go");
    expect(await backend.activeLabel()).toBeUndefined();
    await backend.removeProfile("temp");
  });

  test("updating an active profile changes the address and metric in place", async () => {
    const { netns, backend, sink } = await world();
    const before = parsedNetworks({ desk: { type: "wired", interface: "eth0", ipv4_address: "10.200.0.2/24", ipv4_gateway: "10.200.0.1" } });
    await backend.applyProfile({ label: "desk", network: before.desk! }, NO_POWER_SAVE_CHOICE);
    expect((await backend.activate("desk")).ok).toBe(true);

    const after = parsedNetworks({
      desk: { type: "wired", interface: "eth0", ipv4_address: "10.200.0.5/24", ipv4_gateway: "10.200.0.1", ipv4_route_metric: 250 },
    });
    await backend.applyProfile({ label: "desk", network: after.desk! }, NO_POWER_SAVE_CHOICE);
    const updated = sink.entries.find((entry) => entry.message === "updated network profile");
    expect(updated?.fields).toMatchObject({ label: "desk", changed: "ipv4.address-data, ipv4.route-metric" });

    await eventually(() => {
      const addresses = netns.ip("-4", "addr", "show", "dev", "eth0");
      return addresses.includes("inet 10.200.0.5/24") && !addresses.includes("10.200.0.2/") ? true : undefined;
    }, "the new address to replace the old one");
    await eventually(() => (/default via 10\.200\.0\.1 dev eth0 .*metric 250/.test(netns.ip("-4", "route", "show", "default")) ? true : undefined), "the new metric");
    expect(await backend.activeLabel()).toBe("desk");
  });

  test("a link going down and coming back is reported as device events", async () => {
    const { netns, backend } = await world();
    const networks = parsedNetworks({ cable: { type: "wired", interface: "eth0", ipv4_address: "10.200.0.2/24" } });
    await backend.applyProfile({ label: "cable", network: networks.cable! }, NO_POWER_SAVE_CHOICE);
    expect((await backend.activate("cable")).ok).toBe(true);
    const seen: NetworkEvent[] = [];
    backend.onEvent((event) => seen.push(event));

    netns.peerIp("link", "set", "eth0p", "down");
    await eventually(
      () => seen.find((event) => event.kind === "device" && event.interface === "eth0" && event.state === "unavailable"),
      "eth0 to become unavailable",
    );
    expect(seen).toContainEqual({ kind: "device", interface: "eth0", state: "unavailable", reason: "the link went down (no carrier)" });

    netns.peerIp("link", "set", "eth0p", "up");
    await eventually(
      () => seen.find((event) => event.kind === "device" && event.interface === "eth0" && event.state === "connected"),
      "eth0 to connect again (autoconnect)",
    );
    // The device reports connected a moment before its active connection reads as activated.
    await eventually(async () => ((await backend.activeLabel()) === "cable" ? true : undefined), "the cable profile active again");
  });

  test("activating a profile whose device does not exist fails with the reason", async () => {
    const { backend } = await world();
    const networks = parsedNetworks({ ghost: { type: "wired", interface: "eth9", ipv4_address: "10.200.0.2/24" } });
    await backend.applyProfile({ label: "ghost", network: networks.ghost! }, NO_POWER_SAVE_CHOICE);
    expect(await backend.activate("ghost")).toEqual({ ok: false, reason: "no device eth9" });
    expect(await backend.activate("nobody")).toEqual({ ok: false, reason: 'no network profile for "nobody"' });
  });

  test("a wifi profile is stored with its password and power save; applying it again changes nothing", async () => {
    const { backend, sink, bus } = await world();
    const networks = parsedNetworks({ home: { type: "wifi", ssid: "Home Net", psk: "secret-passphrase", priority: 30 } });
    const managed = { label: "home", network: networks.home! };
    await backend.applyProfile(managed, { wifiPowerSave: true });
    await backend.applyProfile(managed, { wifiPowerSave: true });
    expect(sink.entries.filter((entry) => entry.message.endsWith("network profile")).map((entry) => entry.message)).toEqual(["added network profile"]);

    const api = await settingsApi(bus);
    const [path] = (await api.ListConnections()) as string[];
    const connection = (await bus.getProxyObject(NM, path!)).getInterface("org.freedesktop.NetworkManager.Settings.Connection");
    const stored = (await connection.GetSettings()) as Record<string, Record<string, Variant>>;
    expect(Buffer.from(stored["802-11-wireless"]!.ssid!.value as Uint8Array).toString()).toBe("Home Net");
    expect(stored["802-11-wireless"]!.powersave!.value).toBe(3);
    expect(stored["802-11-wireless-security"]!["key-mgmt"]!.value).toBe("wpa-psk");

    await backend.applyProfile(managed, { wifiPowerSave: false });
    await backend.applyProfile({ label: "home", network: { ...networks.home!, psk: "another-passphrase" } }, { wifiPowerSave: false });
    const changes = sink.entries.filter((entry) => entry.message === "updated network profile").map((entry) => entry.fields.changed);
    expect(changes).toEqual(["802-11-wireless.powersave", "802-11-wireless-security.psk"]);
    // The password is in no log line, debug included.
    expect(JSON.stringify(sink.entries)).not.toContain("passphrase");
  });

  test("activating DHCP on an unplugged link fails and says why", async () => {
    const { netns, backend } = await world();
    const networks = parsedNetworks({ cable: { type: "wired", interface: "eth0" } });
    netns.peerIp("link", "set", "eth0p", "down");
    await eventually(async () => ((await backend.devices()).some((d) => d.interface === "eth0" && d.state === "unavailable") ? true : undefined), "eth0 without carrier");
    await backend.applyProfile({ label: "cable", network: networks.cable! }, NO_POWER_SAVE_CHOICE);
    const result = await backend.activate("cable");
    expect(result.ok).toBe(false);
    expect(result).toEqual({ ok: false, reason: "eth0 has no carrier (link down or cable unplugged)" });
  });

  test("a wired profile on DHCP gets its address from the network", async () => {
    const { netns, backend } = await world({ dhcp: true });
    const networks = parsedNetworks({ dynamic: { type: "wired", interface: "eth0" } });
    await backend.applyProfile({ label: "dynamic", network: networks.dynamic! }, NO_POWER_SAVE_CHOICE);
    expect(await backend.activate("dynamic")).toEqual({ ok: true, interface: "eth0" });
    expect(netns.ip("-4", "addr", "show", "dev", "eth0")).toMatch(/inet 10\.200\.0\.1\d\d\/24/);
  });
});
