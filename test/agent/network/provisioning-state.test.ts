// The provisioning state machine, rule by rule (CONTRACT section 3): losing the connection, the
// order networks are tried in, the hotspot delay, leaving the hotspot when nobody uses it, coming
// back to it, submissions from the portal, and rebooting after a long time offline.
import { describe, expect, it } from "vitest";
import {
  initialProvisioningState,
  parseMachineConfig,
  provisioningDeadline,
  provisioningSettings,
  provisioningStep,
  type ProvisioningAction,
  type ProvisioningInput,
  type ProvisioningSettings,
  type ProvisioningState,
} from "../../../core/index.js";
import { runProvisioningScenario } from "./provisioning-scenario.js";

const MIN = 60_000;

function settings(overrides: Partial<ProvisioningSettings> = {}): ProvisioningSettings {
  return {
    networks: [
      { label: "office", priority: 10 },
      { label: "backup", priority: 5 },
    ],
    requireInternet: true,
    offlineBeforeHotspotMs: 2 * MIN,
    retryConnectionMs: 10 * MIN,
    userIdleMs: 5 * MIN,
    rebootAfterOfflineMs: 0,
    hotspot: { ssid: "svc-setup-robot", password: "s3cret-pass", interface: "" },
    ...overrides,
  };
}

/** Feeds inputs one after the other; returns the last state and every action, with its time. */
function run(s: ProvisioningSettings, inputs: ProvisioningInput[], from: ProvisioningState = initialProvisioningState()) {
  let state = from;
  const actions: Array<ProvisioningAction & { at: number }> = [];
  for (const input of inputs) {
    const step = provisioningStep(state, input, s);
    state = step.state;
    for (const action of step.actions) actions.push({ ...action, at: input.now });
  }
  return { state, actions };
}

const online = (now: number, label: string | null = "office"): ProvisioningInput => ({ kind: "status", now, connected: true, connectivity: "full", label });
const offline = (now: number): ProvisioningInput => ({ kind: "status", now, connected: false, connectivity: "none", label: null });
const tick = (now: number): ProvisioningInput => ({ kind: "tick", now });
const failed = (now: number, label: string, attempt: number): ProvisioningInput => ({ kind: "activation", now, label, attempt, ok: false, connectivity: "none" });

describe("provisioning: online and losing the connection", () => {
  it("applies the profiles when the settings are given, and goes online on a connected status", () => {
    const { state, actions } = run(settings(), [{ kind: "settings", now: 0 }, online(1)]);
    expect(actions).toEqual([{ kind: "apply-profiles", at: 0 }]);
    expect(state.phase).toEqual({ name: "online", label: "office" });
  });

  it("tries the next network by priority at once when the connection is lost, skipping the lost one", () => {
    const { state, actions } = run(settings(), [online(0), offline(1_000)]);
    expect(actions).toEqual([{ kind: "activate", label: "backup", attempt: 1, at: 1_000 }]);
    expect(state.phase).toMatchObject({ name: "trying", label: "backup", since: 1_000 });
  });

  it("tries every network highest priority first, the next on each failure", () => {
    const s = settings({ networks: [{ label: "c", priority: 1 }, { label: "a", priority: 3 }, { label: "b", priority: 2 }].sort((x, y) => y.priority - x.priority) });
    const { actions } = run(s, [offline(0), failed(10, "a", 1), failed(20, "b", 2), failed(30, "c", 3)]);
    expect(actions.map((a) => (a.kind === "activate" ? a.label : a.kind))).toEqual(["a", "b", "c"]);
  });

  it("goes online when an activation succeeds with the internet reachable", () => {
    const { state } = run(settings(), [offline(0), { kind: "activation", now: 5, label: "office", attempt: 1, ok: true, connectivity: "full" }]);
    expect(state.phase).toEqual({ name: "online", label: "office" });
  });

  it("with the internet required, a connection without it is not online and the next network is tried", () => {
    const s = settings();
    const { state, actions } = run(s, [
      offline(0),
      { kind: "activation", now: 5, label: "office", attempt: 1, ok: true, connectivity: "limited" },
    ]);
    expect(actions.map((a) => a.kind === "activate" && a.label)).toEqual(["office", "backup"]);
    expect(state.phase).toMatchObject({ name: "trying", label: "backup" });
    const portal = run(s, [online(0), { kind: "status", now: 9, connected: true, connectivity: "portal", label: "office" }]);
    expect(portal.state.phase).toMatchObject({ name: "trying", label: "backup" });
  });

  it("without the internet requirement, a wifi connection alone counts as online", () => {
    const s = settings({ requireInternet: false });
    const { state } = run(s, [
      offline(0),
      { kind: "activation", now: 5, label: "office", attempt: 1, ok: true, connectivity: "limited" },
    ]);
    expect(state.phase).toEqual({ name: "online", label: "office" });
    const still = run(s, [online(0), { kind: "status", now: 9, connected: true, connectivity: "none", label: "office" }]);
    expect(still.state.phase).toMatchObject({ name: "online" });
  });

  it("takes the highest-priority network only, without the internet requirement", () => {
    const agent = parseMachineConfig(JSON.stringify({
      agent: {
        network_configuration: { turn_on_hotspot_if_wifi_has_no_internet: false },
        additional_networks: {
          low: { type: "wired", priority: -3 },
          high: { type: "wifi", ssid: "h", psk: "password1", priority: 40 },
          mid: { type: "wifi", ssid: "m", psk: "password2", priority: 7 },
        },
      },
    })).config!.agent;
    expect(provisioningSettings(agent, { hostname: "robot" }).networks).toEqual([{ label: "high", priority: 40 }]);
    const all = provisioningSettings({ ...agent, network_configuration: { ...agent.network_configuration, turn_on_hotspot_if_wifi_has_no_internet: true } }, {
      hostname: "robot",
      extraNetworks: [{ label: "provisioned", priority: 999 }],
    });
    expect(all.networks.map((n) => n.label)).toEqual(["provisioned", "high", "mid", "low"]);
  });

  it("names the hotspot after the prefix and the hostname, and scales every delay", () => {
    const agent = parseMachineConfig(JSON.stringify({
      agent: { network_configuration: { hotspot_prefix: "acme", hotspot_password: "letmein99", hotspot_interface: "wlan1", device_reboot_after_offline_minutes: 30 } },
    })).config!.agent;
    const s = provisioningSettings(agent, { hostname: "arm-7", minutes: (m) => m * 60 });
    expect(s.hotspot).toEqual({ ssid: "acme-arm-7", password: "letmein99", interface: "wlan1" });
    expect([s.offlineBeforeHotspotMs, s.retryConnectionMs, s.userIdleMs, s.rebootAfterOfflineMs]).toEqual([120, 600, 300, 1800]);
    expect(provisioningSettings(parseMachineConfig("{}").config!.agent, { hostname: "x" }).rebootAfterOfflineMs).toBe(0);
  });

  it("ignores the late result of an abandoned attempt", () => {
    // "office" is being tried, the device comes online another way, loses it, and tries again.
    const s = settings({ networks: [{ label: "office", priority: 10 }] });
    const { state } = run(s, [offline(0), online(5, null), offline(6), failed(7, "office", 1)]);
    expect(state.phase).toMatchObject({ name: "trying", label: "office", attempt: 2 });
  });
});

describe("provisioning: the hotspot", () => {
  const s = settings();
  const allFailed = [offline(0), failed(10, "office", 1), failed(20, "backup", 2)];

  it("starts the hotspot only once offline longer than the delay", () => {
    const early = run(s, [...allFailed, tick(2 * MIN - 1)]);
    expect(early.actions.some((a) => a.kind === "start-hotspot")).toBe(false);
    expect(provisioningDeadline(early.state, s)).toBe(2 * MIN);
    const { state, actions } = run(s, [...allFailed, tick(2 * MIN)]);
    expect(actions.at(-1)).toEqual({ kind: "start-hotspot", ssid: "svc-setup-robot", password: "s3cret-pass", interface: "", at: 2 * MIN });
    expect(state.phase).toEqual({ name: "hotspot", since: 0, startedAt: 2 * MIN, userActiveAt: null });
  });

  it("with no network configured at first boot, the hotspot comes up after the delay", () => {
    const { actions } = run(settings({ networks: [] }), [{ kind: "settings", now: 0 }, offline(0), tick(2 * MIN)]);
    expect(actions.map((a) => a.kind)).toEqual(["apply-profiles", "start-hotspot"]);
  });

  it("waits for an activation in progress before bringing the hotspot up", () => {
    const { state, actions } = run(s, [offline(0), tick(3 * MIN)]);
    expect(actions.map((a) => a.kind)).toEqual(["activate"]);
    expect(state.phase.name).toBe("trying");
  });

  it("leaves the hotspot after the retry time-out with nobody on the portal, tries the networks, and comes back", () => {
    const up = run(s, [...allFailed, tick(2 * MIN)]).state;
    const exit = run(s, [tick(12 * MIN)], up);
    expect(exit.actions).toEqual([
      { kind: "stop-hotspot", at: 12 * MIN },
      { kind: "activate", label: "office", attempt: 3, at: 12 * MIN },
    ]);
    expect(exit.state.phase).toMatchObject({ name: "hotspot-exited", exitedAt: 12 * MIN, trying: "office" });
    const back = run(s, [failed(12 * MIN + 5, "office", 3), failed(12 * MIN + 9, "backup", 4), tick(14 * MIN - 1), tick(14 * MIN)], exit.state);
    expect(back.actions.map((a) => a.kind)).toEqual(["activate", "start-hotspot"]);
    expect(back.actions.at(-1)!.at).toBe(14 * MIN);
    expect(back.state.phase).toMatchObject({ name: "hotspot", since: 0, startedAt: 14 * MIN });
  });

  it("stays in the hotspot while a person uses the portal, and leaves once they are idle", () => {
    const up = run(s, [...allFailed, tick(2 * MIN)]).state;
    const busy = run(s, [{ kind: "user-activity", now: 11 * MIN }, tick(12 * MIN)], up);
    expect(busy.actions).toEqual([]);
    expect(provisioningDeadline(busy.state, s)).toBe(16 * MIN);
    const idle = run(s, [tick(16 * MIN)], busy.state);
    expect(idle.actions[0]).toEqual({ kind: "stop-hotspot", at: 16 * MIN });
  });

  it("a submission stops the hotspot and tries the new network at once", () => {
    const up = run(s, [...allFailed, tick(2 * MIN)]).state;
    const { state, actions } = run(s, [{ kind: "submission", now: 3 * MIN, label: "provisioned" }], up);
    expect(actions).toEqual([
      { kind: "stop-hotspot", at: 3 * MIN },
      { kind: "activate", label: "provisioned", attempt: 3, at: 3 * MIN },
    ]);
    const ok = run(s, [{ kind: "activation", now: 3 * MIN + 9, label: "provisioned", attempt: 3, ok: true, connectivity: "full" }], state);
    expect(ok.state.phase).toEqual({ name: "online", label: "provisioned" });
  });

  it("a failed submission brings the hotspot back at once for the person waiting", () => {
    const up = run(s, [...allFailed, tick(2 * MIN)]).state;
    const { state, actions } = run(s, [{ kind: "submission", now: 3 * MIN, label: "provisioned" }, failed(3 * MIN + 7, "provisioned", 3)], up);
    expect(actions.map((a) => a.kind)).toEqual(["stop-hotspot", "activate", "start-hotspot"]);
    expect(state.phase).toMatchObject({ name: "hotspot", startedAt: 3 * MIN + 7, userActiveAt: 3 * MIN + 7 });
  });

  it("a connection coming up another way (a cable) takes the hotspot down", () => {
    const up = run(s, [...allFailed, tick(2 * MIN)]).state;
    const { state, actions } = run(s, [online(5 * MIN, null)], up);
    expect(actions).toEqual([{ kind: "stop-hotspot", at: 5 * MIN }]);
    expect(state.phase).toEqual({ name: "online", label: null });
  });

  it("a hotspot that fails to start is retried after the delay, the networks tried meanwhile", () => {
    const up = run(s, [...allFailed, tick(2 * MIN)]).state;
    const { actions } = run(s, [{ kind: "hotspot-failed", now: 2 * MIN }, failed(2 * MIN + 1, "office", 3), failed(2 * MIN + 2, "backup", 4), tick(4 * MIN)], up);
    expect(actions.map((a) => a.kind)).toEqual(["activate", "activate", "start-hotspot"]);
  });
});

describe("provisioning: rebooting after a long time offline", () => {
  it("never reboots when the setting is 0", () => {
    const { actions } = run(settings({ networks: [] }), [offline(0), tick(2 * MIN), tick(12 * MIN), tick(24 * 60 * MIN)]);
    expect(actions.some((a) => a.kind === "reboot")).toBe(false);
  });

  it("reboots once offline that long, counted from the loss across hotspot periods, and then does nothing more", () => {
    const s = settings({ networks: [], rebootAfterOfflineMs: 15 * MIN });
    const { state, actions } = run(s, [online(0), offline(MIN), tick(3 * MIN), tick(13 * MIN), tick(15 * MIN), tick(16 * MIN - 1), tick(16 * MIN), offline(17 * MIN), tick(30 * MIN)]);
    expect(actions.map((a) => `${a.kind}@${a.at / MIN}`)).toEqual(["start-hotspot@3", "stop-hotspot@13", "start-hotspot@15", "reboot@16"]);
    expect(state.phase).toEqual({ name: "rebooting", since: MIN, at: 16 * MIN });
  });

  it("waits for a portal user to go idle before rebooting", () => {
    const s = settings({ networks: [], rebootAfterOfflineMs: 5 * MIN });
    const { actions } = run(s, [offline(0), tick(2 * MIN), { kind: "user-activity", now: 4 * MIN }, tick(5 * MIN), tick(9 * MIN)]);
    expect(actions.map((a) => `${a.kind}@${a.at / MIN}`)).toEqual(["start-hotspot@2", "reboot@9"]);
  });

  it("coming back online resets the offline time", () => {
    const s = settings({ networks: [], rebootAfterOfflineMs: 5 * MIN });
    const { actions } = run(s, [offline(0), online(4 * MIN, null), offline(6 * MIN), tick(10 * MIN)]);
    expect(actions.some((a) => a.kind === "reboot")).toBe(false);
  });
});

describe("provisioning on a clock", () => {
  it("fires its own deadlines: hotspot, exit, retry and back, reboot", () => {
    const out = runProvisioningScenario({
      settings: settings({ networks: [{ label: "office", priority: 1 }], rebootAfterOfflineMs: 30 * MIN }),
      steps: [
        { event: { kind: "settings" } },
        { event: { kind: "status", connected: true, connectivity: "full", label: "office" } },
        { event: { kind: "status", connected: false, connectivity: "none", label: null } },
        { advance: 12 * MIN },
        { activated: { ok: false } },
        { advance: 12 * MIN },
        { activated: { ok: false } },
        { advance: 30 * MIN },
      ],
    });
    expect(out.records.map((r) => `${r.actions.map((a) => a.kind).join("+")}@${r.at / MIN}`)).toEqual([
      "apply-profiles@0",
      "start-hotspot@2",
      "stop-hotspot+activate@12",
      "start-hotspot@14",
      "stop-hotspot+activate@24",
      "start-hotspot@26",
      "reboot@30",
    ]);
    expect(out.final.name).toBe("rebooting");
  });
});
