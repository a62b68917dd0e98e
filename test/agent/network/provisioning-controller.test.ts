// The network controller against an in-memory NetworkBackend, with minutes scaled to milliseconds:
// profiles from `additional_networks`, failing over by priority, the hotspot and its portal, a
// submission from the portal, rebooting after a long time offline, and
// `disable_network_configuration` leaving everything alone.
import { createNodeClock } from "../../../targets/linux/logging/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { createCollectingSink, createLogEngine, createScaledClock, parseMachineConfig, sleep, type AgentConfig } from "../../../core/index.js";
import {
  createNetworkController,
  createSystemReboot,
  type NetworkController,
  type PortalSeam,
  type PortalSession,
} from "../../../targets/linux/agent/network/provisioning/index.js";
import { eventually } from "../../helpers/eventually.js";
import { createMemoryBackend, type MemoryBackend } from "./provisioning-memory-backend.js";

// One minute is 30 ms: the hotspot delay (2 min) is 60 ms, the retry time-out (10 min) 300 ms.
const agentClock = createScaledClock(createNodeClock(), 0.0005);
const MINUTE = 60_000;

function agentConfig(agent: unknown): AgentConfig {
  const parsed = parseMachineConfig(JSON.stringify({ agent }));
  expect(parsed.issues.filter((i) => i.severity === "error")).toEqual([]);
  return parsed.config!.agent;
}

function recordingPortal() {
  const sessions: PortalSession[] = [];
  let running: PortalSession | undefined;
  const portal: PortalSeam & { sessions: PortalSession[]; running(): PortalSession | undefined } = {
    sessions,
    running: () => running,
    async start(session) {
      sessions.push(session);
      running = session;
    },
    async stop() {
      running = undefined;
    },
  };
  return portal;
}

const controllers: NetworkController[] = [];
afterEach(async () => {
  await Promise.all(controllers.splice(0).map((c) => c.close()));
});

function setup(agent: unknown, backend: MemoryBackend = createMemoryBackend()) {
  let config = agentConfig(agent);
  const reboots: number[] = [];
  const portal = recordingPortal();
  const sink = createCollectingSink();
  const clock = createNodeClock();
  const logger = createLogEngine({ clock, sink }).logger("svc-agent.network");
  const controller = createNetworkController({
    backend,
    settings: () => config,
    hostname: "arm-7",
    clock: agentClock,
    reboot: async () => void reboots.push(Date.now()),
    logger,
    portal,
  });
  controllers.push(controller);
  return {
    backend,
    controller,
    portal,
    reboots,
    sink,
    reconfigure(agent: unknown) {
      config = agentConfig(agent);
      return controller.reconfigure();
    },
  };
}

const office = { type: "wifi", ssid: "Office", psk: "office-pass", priority: 20 };
const warehouse = { type: "wifi", ssid: "Warehouse", psk: "warehouse-pass", priority: 10 };
const tryAll = { turn_on_hotspot_if_wifi_has_no_internet: true };

describe("network controller: profiles", () => {
  it("applies every configured network with wifi_power_save, and removes the profiles of labels that are gone", async () => {
    const t = setup({ network_configuration: { wifi_power_save: false }, additional_networks: { office, lab: { type: "wired", priority: 1, ipv4_address: "10.1.2.3/24" } } });
    t.backend.appear("Office");
    await t.controller.start();
    await t.controller.idle();
    expect([...t.backend.profiles.keys()].sort()).toEqual(["lab", "office"]);
    expect(t.backend.profiles.get("office")!.options).toEqual({ wifiPowerSave: false });
    expect(t.backend.profiles.get("lab")!.managed.network).toMatchObject({ type: "wired", ipv4_address: "10.1.2.3/24", ipv4_route_metric: 100 });

    await t.reconfigure({ network_configuration: { wifi_power_save: true }, additional_networks: { office } });
    await t.controller.idle();
    expect([...t.backend.profiles.keys()]).toEqual(["office"]);
    expect(t.backend.profiles.get("office")!.options).toEqual({ wifiPowerSave: true });
    expect(t.backend.userProfiles).toEqual(["Home (user)"]);
  });

  it("with disable_network_configuration, touches no profile and never starts the hotspot", async () => {
    const t = setup({ advanced_settings: { disable_network_configuration: true }, additional_networks: { office } });
    await t.controller.start();
    await sleep(agentClock, 4 * MINUTE);
    expect(t.backend.profiles.size).toBe(0);
    expect(t.backend.hotspots).toEqual([]);
    expect(t.controller.phase()).toBe("disabled");
    expect(await t.controller.submit({ ssid: "Office", psk: "office-pass" })).toEqual({ ok: false, error: "network configuration is not running" });

    await t.reconfigure({ additional_networks: { office } });
    await eventually(() => (t.backend.profiles.has("office") ? true : undefined), "the profile once re-enabled");
  });
});

describe("network controller: moving between networks", () => {
  it("a configured wifi network disappears: the next by priority is activated", async () => {
    const t = setup({ network_configuration: tryAll, additional_networks: { office, warehouse } });
    t.backend.appear("Office");
    t.backend.appear("Warehouse");
    await t.controller.start();
    await eventually(() => (t.backend.active() === "office" ? true : undefined), "office to come up");
    await eventually(() => (t.controller.phase() !== "stopped" && (t.controller.phase() as { name: string }).name === "online" ? true : undefined), "online");

    t.backend.vanish("Office");
    await eventually(() => (t.backend.active() === "warehouse" ? true : undefined), "failover to warehouse");
    expect(t.backend.activations.slice(-1)).toEqual(["warehouse"]);
    expect(t.controller.phase()).toEqual({ name: "online", label: "warehouse" });
    expect(t.backend.hotspots).toEqual([]);
  });

  it("with the internet required, a network without it is passed over for the next", async () => {
    const t = setup({ network_configuration: tryAll, additional_networks: { office, warehouse } });
    t.backend.appear("Office", "limited");
    t.backend.appear("Warehouse", "full");
    await t.controller.start();
    await eventually(() => (t.backend.active() === "warehouse" ? true : undefined), "warehouse, which has the internet");
    expect(t.controller.phase()).toEqual({ name: "online", label: "warehouse" });
  });
});

describe("network controller: provisioning", () => {
  it("first boot with no network: hotspot and portal after the delay; a submission connects", async () => {
    const t = setup({ network_configuration: { hotspot_prefix: "acme", hotspot_password: "acme-setup-1", manufacturer: "Acme", model: "Arm 7" } });
    await t.controller.start();
    await eventually(() => t.portal.running(), "the portal");
    expect(t.backend.hotspots).toEqual([{ interface: "", ssid: "acme-arm-7", password: "acme-setup-1" }]);
    const session = t.portal.running()!;
    expect(session).toMatchObject({ address: "10.42.0.1", interface: "wlan0", ssid: "acme-arm-7", manufacturer: "Acme", model: "Arm 7", redirectAll: true, lastError: undefined });
    t.backend.appear("Cafe");
    expect((await session.scan()).map((ap) => ap.ssid)).toEqual(["Cafe"]);

    expect(await session.submit({ ssid: "", psk: "whatever1" })).toEqual({ ok: false, error: "the network name (SSID) is empty" });
    expect(await session.submit({ ssid: "Cafe", psk: "short" })).toEqual({ ok: false, error: "a WPA password has 8 to 63 characters" });
    expect(await session.submit({ ssid: "Cafe", psk: "cafe-password" })).toEqual({ ok: true });

    expect(t.portal.running()).toBeUndefined();
    expect(t.backend.hotspot()).toBeUndefined();
    expect(t.backend.active()).toBe("provisioned");
    expect(t.backend.profiles.get("provisioned")!.managed.network).toMatchObject({ type: "wifi", ssid: "Cafe", psk: "cafe-password", priority: 999 });
    expect(t.controller.phase()).toEqual({ name: "online", label: "provisioned" });
    // The provisioned profile survives a configuration change that does not name it.
    await t.reconfigure({ additional_networks: { office } });
    expect(t.backend.profiles.has("provisioned")).toBe(true);
  });

  it("a submission that fails brings the hotspot back, its portal showing the error", async () => {
    const t = setup({});
    await t.controller.start();
    const session = await eventually(() => t.portal.running(), "the portal");
    const result = await session.submit({ ssid: "Nowhere", psk: "nowhere-pass" });
    expect(result).toEqual({ ok: false, error: 'the network "Nowhere" was not found' });
    const again = await eventually(() => (t.portal.sessions.length === 2 ? t.portal.running() : undefined), "the portal again");
    expect(again.lastError).toBe('the network "Nowhere" was not found');
    expect(t.backend.hotspots.length).toBe(2);
  });

  it("all networks gone: hotspot after the delay, and with nobody on the portal, retries and comes back", async () => {
    const t = setup({ additional_networks: { office } });
    t.backend.appear("Office");
    await t.controller.start();
    await eventually(() => (t.backend.active() === "office" ? true : undefined), "office");
    t.backend.vanish("Office");
    await eventually(() => (t.backend.hotspots.length === 1 ? true : undefined), "the hotspot");
    await eventually(() => (t.backend.hotspotStops >= 1 ? true : undefined), "leaving the hotspot to retry");
    await eventually(() => (t.backend.hotspots.length === 2 ? true : undefined), "the hotspot back");
    expect(t.backend.activations.filter((l) => l === "office").length).toBeGreaterThanOrEqual(2);
    // Once the network is back, the next retry finds it.
    t.backend.appear("Office");
    await eventually(() => (t.backend.active() === "office" ? true : undefined), "office again", { timeoutMs: 5_000 });
    expect(t.backend.hotspot()).toBeUndefined();
  });

  it("stays in the hotspot while a person uses the portal", async () => {
    const t = setup({});
    await t.controller.start();
    const session = await eventually(() => t.portal.running(), "the portal");
    // Activity every 2 scaled minutes for 16 scaled minutes: past the 10-minute retry time-out.
    for (let i = 0; i < 8; i++) {
      session.onUserActivity();
      await sleep(agentClock, 2 * MINUTE);
    }
    expect(t.backend.hotspotStops).toBe(0);
    await eventually(() => (t.backend.hotspotStops === 1 ? true : undefined), "leaving once idle");
  });

  it("reboots through the seam after device_reboot_after_offline_minutes offline", async () => {
    const t = setup({ network_configuration: { device_reboot_after_offline_minutes: 5 } });
    await t.controller.start();
    await eventually(() => (t.reboots.length === 1 ? true : undefined), "the reboot");
    expect(t.controller.phase()).toMatchObject({ name: "rebooting" });
  });

  it("a hotspot that cannot start is reported and retried", async () => {
    const t = setup({}, createMemoryBackend({ failHotspot: true }));
    await t.controller.start();
    await eventually(() => (t.sink.entries.filter((e) => e.message === "the provisioning hotspot could not start").length >= 2 ? true : undefined), "two attempts");
    expect(t.portal.sessions).toEqual([]);
  });
});

describe("the reboot seam", () => {
  it("runs systemctl reboot through the command runner, and reports a failure", async () => {
    const ran: string[] = [];
    const logger = createLogEngine({ clock: createNodeClock(), sink: createCollectingSink() }).logger("svc-agent");
    const ok = createSystemReboot({ run: async (cmd, args) => (ran.push([cmd, ...args].join(" ")), { code: 0, stdout: "", stderr: "" }), logger });
    await ok();
    expect(ran).toEqual(["systemctl reboot"]);
    const refused = createSystemReboot({ run: async () => ({ code: 1, stdout: "", stderr: "Access denied" }), logger });
    await expect(refused()).rejects.toThrow("systemctl reboot failed (exit 1): Access denied");
  });
});
