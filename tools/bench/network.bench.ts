// Network failover: the agent's network controller on the real NetworkManager client, against the
// simulated NetworkManager on a private bus. Two configured wifi networks; the one in use goes out
// of range, and the time is taken from NetworkManager's device StateChanged (the connection lost)
// to the ActivateConnection call for the next network by priority arriving at NetworkManager,
// both as the simulation recorded them. The simulation is served from this process (the bench is
// bundled, so the helper that forks it cannot find its source), over the same private bus daemon.
// BENCH_FAILOVERS (default 12) sets the number of failovers measured.
import { createNodeClock } from "../../targets/linux/logging/index.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sessionBus } from "dbus-next";
import { createCollectingSink, createLogEngine, parseMachineConfig } from "../../core/index.js";
import { createNetworkManagerBackend } from "../../targets/linux/agent/network/nm/index.js";
import { createNetworkController } from "../../targets/linux/agent/network/provisioning/index.js";
import { startPrivateSystemBus } from "../../test/helpers/sim-network-manager/private-system-bus.js";
import { createSimNetworkManagerService } from "../../test/helpers/sim-network-manager/sim-network-manager-service.js";
import type { SimEvent, SimSnapshot } from "../../test/helpers/sim-network-manager/sim-types.js";
import { report } from "./report.js";

const failovers = Number(process.env.BENCH_FAILOVERS ?? 12);
const ACTIVATED = 100;
const networks = { office: "Office", warehouse: "Warehouse" } as const;

async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const giveUp = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > giveUp) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

const dir = mkdtempSync(join(tmpdir(), "svc-bench-network-"));
const bus = await startPrivateSystemBus(dir);
const simBus = sessionBus({ busAddress: bus.address });
const events: SimEvent[] = [];
const sim = createSimNetworkManagerService(
  simBus,
  { wifi: ["wlan0"], accessPoints: [{ ssid: "Office", psk: "office-pass" }, { ssid: "Warehouse", psk: "warehouse-pass" }] },
  (event) => events.push(event),
);
await simBus.requestName("org.freedesktop.NetworkManager", 4);

const clock = createNodeClock();
const logger = createLogEngine({ clock, sink: createCollectingSink() }).logger("svc-agent.network");
const backend = await createNetworkManagerBackend({ bus: bus.address, logger });
const agent = parseMachineConfig(JSON.stringify({
  agent: {
    network_configuration: { turn_on_hotspot_if_wifi_has_no_internet: true },
    additional_networks: {
      office: { type: "wifi", ssid: "Office", psk: "office-pass", priority: 20 },
      warehouse: { type: "wifi", ssid: "Warehouse", psk: "warehouse-pass", priority: 10 },
    },
  },
})).config!.agent;
const controller = createNetworkController({
  backend,
  settings: () => agent,
  hostname: "bench",
  clock,
  reboot: async () => {},
  logger,
});

const active = () => (sim.control({ op: "snapshot" }) as SimSnapshot).devices.find((d) => d.interface === "wlan0")?.activeConnection;
const online = () => {
  const phase = controller.phase();
  return typeof phase === "object" && phase.name === "online" ? phase.label : undefined;
};

try {
  // The first scan must have seen both networks, or the first activations fail for want of them.
  await until(async () => ((await backend.accessPoints()).length === 2 ? true : undefined), "the first scan");
  await controller.start();
  await until(() => (active() === "svc-office" && online() === "office" ? true : undefined), "office up");
  const times: number[] = [];
  for (let i = 0; i < failovers; i++) {
    const from = online() as keyof typeof networks;
    const to = from === "office" ? "warehouse" : "office";
    events.length = 0;
    sim.control({ op: "setInRange", ssid: networks[from], inRange: false });
    const call = await until(() => events.find((e) => e.kind === "call" && e.member === "ActivateConnection" && e.connection === `svc-${to}`), `activation of ${to}`);
    const lost = events.find((e) => e.kind === "device-state" && e.interface === "wlan0" && e.oldState === ACTIVATED);
    if (!lost) throw new Error("no StateChanged for the lost connection was recorded");
    times.push(call.at - lost.at);
    await until(() => (online() === to ? true : undefined), `${to} up`);
    sim.control({ op: "setInRange", ssid: networks[from], inRange: true });
  }
  times.sort((a, b) => a - b);
  report("network failover", times[Math.floor(times.length / 2)]!, "ms", "< 1000 ms");
  report("network failover, slowest", times[times.length - 1]!, "ms", "< 1000 ms");
} finally {
  await controller.close();
  await backend.close();
  // The simulation may still answer a call or send a signal as its bus goes away.
  process.on("uncaughtException", (error) => {
    if (!String(error).includes("stream is closed")) throw error;
  });
  simBus.disconnect();
  await bus.stop();
  rmSync(dir, { recursive: true, force: true });
}
