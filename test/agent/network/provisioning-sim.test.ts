// Provisioning scenarios end to end over D-Bus: the network controller drives the real
// NetworkManager client, which talks to the simulated NetworkManager (Wi-Fi, access points, the
// hotspot) on a private bus. Agent minutes are scaled to milliseconds.
import { createNodeClock } from "../../../targets/linux/logging/index.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCollectingSink, createLogEngine, createScaledClock, parseMachineConfig, type AgentConfig } from "../../../core/index.js";
import type { NetworkBackend } from "../../../targets/linux/agent/network/network-backend.js";
import { createNetworkManagerBackend } from "../../../targets/linux/agent/network/nm/index.js";
import {
  createNetworkController,
  type NetworkController,
  type PortalSeam,
  type PortalSession,
} from "../../../targets/linux/agent/network/provisioning/index.js";
import { eventually } from "../../helpers/eventually.js";
import { startSimNetworkManager, type SimAccessPoint, type SimNetworkManager } from "../../helpers/sim-network-manager/index.js";

// One agent minute is 60 ms: the hotspot delay (2 min) 120 ms, the retry time-out (10 min) 600 ms.
const agentClock = createScaledClock(createNodeClock(), 0.001);

let sim: SimNetworkManager | undefined;
let backend: NetworkBackend | undefined;
let controller: NetworkController | undefined;

afterEach(async () => {
  await controller?.close();
  await backend?.close();
  await sim?.stop();
  controller = backend = sim = undefined;
});

async function start(agent: unknown, accessPoints: SimAccessPoint[]) {
  sim = await startSimNetworkManager({ wifi: ["wlan0"], accessPoints });
  const clock = createNodeClock();
  const sink = createCollectingSink();
  const logger = createLogEngine({ clock, sink }).logger("svc-agent.network");
  backend = await createNetworkManagerBackend({ bus: sim.busAddress, logger });
  const parsed = parseMachineConfig(JSON.stringify({ agent }));
  const config: AgentConfig = parsed.config!.agent;
  const sessions: PortalSession[] = [];
  let running: PortalSession | undefined;
  const portal: PortalSeam = {
    start: async (session) => void sessions.push((running = session)),
    stop: async () => void (running = undefined),
  };
  const reboots: number[] = [];
  controller = createNetworkController({
    backend,
    settings: () => config,
    hostname: "arm-7",
    clock: agentClock,
    reboot: async () => void reboots.push(Date.now()),
    logger,
    portal,
  });
  await controller.start();
  const s = sim;
  const wlan0 = async () => (await s.control.snapshot()).devices.find((d) => d.interface === "wlan0")!;
  return { sim: s, controller, portal: () => running, sessions, reboots, wlan0, sink };
}

const activated = (sim: SimNetworkManager) =>
  sim.control.events().flatMap((e) => (e.kind === "call" && e.member === "ActivateConnection" ? [e.connection ?? "?"] : []));

describe("provisioning over the simulated NetworkManager", () => {
  it("first boot with no network: hotspot, a person provisions through the portal, connected", async () => {
    const t = await start({ network_configuration: { hotspot_password: "setup-pass-1" } }, [{ ssid: "Cafe", psk: "cafe-password" }]);
    const session = await eventually(() => t.portal(), "the portal on the hotspot", { timeoutMs: 10_000 });
    const ap = await t.wlan0();
    expect(ap).toMatchObject({ mode: "ap", activeConnection: "svc-hotspot" });
    const hotspotProfile = (await t.sim.control.snapshot()).connections.find((c) => c.id === "svc-hotspot")!;
    expect(hotspotProfile.settings["802-11-wireless"]!.ssid).toBe("svc-setup-arm-7");
    expect(session.ssid).toBe("svc-setup-arm-7");
    expect(session.interface).toBe("wlan0");

    expect(await session.submit({ ssid: "Cafe", psk: "cafe-password" })).toEqual({ ok: true });
    const client = await t.wlan0();
    expect(client).toMatchObject({ mode: "infrastructure", activeConnection: "svc-provisioned" });
    expect(t.controller.phase()).toEqual({ name: "online", label: "provisioned" });
    expect(t.portal()).toBeUndefined();
  });

  it("a wrong password is reported to the portal, and the hotspot comes back", async () => {
    const t = await start({}, [{ ssid: "Cafe", psk: "cafe-password" }]);
    const session = await eventually(() => t.portal(), "the portal", { timeoutMs: 10_000 });
    const result = await session.submit({ ssid: "Cafe", psk: "wrong-password" });
    expect(result.ok).toBe(false);
    const again = await eventually(() => (t.sessions.length === 2 ? t.portal() : undefined), "the portal again", { timeoutMs: 10_000 });
    expect(again.lastError).toBe(result.ok ? undefined : result.error);
    expect(await t.wlan0()).toMatchObject({ mode: "ap" });
  });

  it("a configured wifi network disappears: the next by priority", async () => {
    const t = await start(
      {
        network_configuration: { turn_on_hotspot_if_wifi_has_no_internet: true, wifi_power_save: false },
        additional_networks: {
          office: { type: "wifi", ssid: "Office", psk: "office-pass", priority: 20 },
          warehouse: { type: "wifi", ssid: "Warehouse", psk: "warehouse-pass", priority: 10 },
        },
      },
      [{ ssid: "Office", psk: "office-pass" }, { ssid: "Warehouse", psk: "warehouse-pass" }],
    );
    await eventually(async () => ((await t.wlan0()).activeConnection === "svc-office" ? true : undefined), "office up", { timeoutMs: 10_000 });
    expect(activated(t.sim)).toEqual(["svc-office"]);
    await t.sim.control.setInRange("Office", false);
    await eventually(async () => ((await t.wlan0()).activeConnection === "svc-warehouse" ? true : undefined), "warehouse up", { timeoutMs: 10_000 });
    expect(activated(t.sim)).toEqual(["svc-office", "svc-warehouse"]);
    await eventually(() => ((t.controller.phase() as { name: string }).name === "online" ? true : undefined), "online again");
  });

  it("all networks gone: hotspot after the delay, idle user, retry, back to the hotspot", async () => {
    const t = await start(
      { additional_networks: { office: { type: "wifi", ssid: "Office", psk: "office-pass", priority: 20 } } },
      [{ ssid: "Office", psk: "office-pass" }],
    );
    await eventually(async () => ((await t.wlan0()).activeConnection === "svc-office" ? true : undefined), "office up", { timeoutMs: 10_000 });
    await t.sim.control.setInRange("Office", false);
    await eventually(async () => ((await t.wlan0()).mode === "ap" ? true : undefined), "the hotspot", { timeoutMs: 10_000 });
    const before = activated(t.sim).length;
    // Nobody uses the portal: after the retry time-out the hotspot goes down and office is tried again.
    await eventually(() => (activated(t.sim).slice(before).includes("svc-office") ? true : undefined), "a retry of office", { timeoutMs: 10_000 });
    await eventually(() => (t.sessions.length >= 2 && t.portal() ? true : undefined), "the hotspot and portal back", { timeoutMs: 10_000 });
    expect(await t.wlan0()).toMatchObject({ mode: "ap", activeConnection: "svc-hotspot" });
  });

  it("reboots through the seam after being offline device_reboot_after_offline_minutes", async () => {
    const t = await start({ network_configuration: { device_reboot_after_offline_minutes: 4 } }, []);
    await eventually(() => (t.reboots.length > 0 ? true : undefined), "the reboot", { timeoutMs: 10_000 });
    expect(t.reboots).toHaveLength(1);
    expect(t.controller.phase()).toMatchObject({ name: "rebooting" });
  });

  it("applies wifi_power_save to every wifi profile the agent manages", async () => {
    const t = await start(
      {
        network_configuration: { wifi_power_save: true },
        additional_networks: {
          office: { type: "wifi", ssid: "Office", psk: "office-pass", priority: 20 },
          yard: { type: "wifi", ssid: "Yard", psk: "yard-pass-1", priority: 5 },
        },
      },
      [{ ssid: "Office", psk: "office-pass" }],
    );
    await eventually(async () => ((await t.wlan0()).activeConnection === "svc-office" ? true : undefined), "office up", { timeoutMs: 10_000 });
    const connections = (await t.sim.control.snapshot()).connections.filter((c) => c.id === "svc-office" || c.id === "svc-yard");
    expect(connections.map((c) => [c.id, c.settings["802-11-wireless"]!.powersave]).sort()).toEqual([
      ["svc-office", 3],
      ["svc-yard", 3],
    ]);
  });
});
