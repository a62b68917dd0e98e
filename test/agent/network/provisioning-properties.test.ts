// Properties of the provisioning state machine over random settings and random sequences of
// network events, activation results, portal activity and passing time (the machine's own
// deadlines fire as they would on a clock): it never asks for anything illegal.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  initialProvisioningState,
  provisioningDeadline,
  provisioningStep,
  type NetworkConnectivity,
  type ProvisioningAction,
  type ProvisioningInput,
  type ProvisioningSettings,
} from "../../../core/index.js";

const connectivity = fc.constantFrom<NetworkConnectivity>("unknown", "none", "portal", "limited", "full");
const labels = ["a", "b", "c", "d"];

const settingsArb: fc.Arbitrary<ProvisioningSettings> = fc.record({
  networks: fc.uniqueArray(fc.constantFrom(...labels), { maxLength: 4 }).chain((names) =>
    fc.tuple(...names.map((label) => fc.integer({ min: -999, max: 999 }).map((priority) => ({ label, priority })))),
  ).map((networks) => networks.sort((x, y) => y.priority - x.priority)),
  requireInternet: fc.boolean(),
  offlineBeforeHotspotMs: fc.integer({ min: 1, max: 200 }),
  retryConnectionMs: fc.integer({ min: 1, max: 500 }),
  userIdleMs: fc.integer({ min: 1, max: 300 }),
  rebootAfterOfflineMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2_000 })),
  hotspot: fc.constant({ ssid: "svc-setup-host", password: "password1", interface: "" }),
});

type Op =
  | { op: "status"; connected: boolean; connectivity: NetworkConnectivity; label: string | null }
  | { op: "resolve"; ok: boolean; connectivity: NetworkConnectivity }
  | { op: "stale"; label: string; attempt: number; ok: boolean }
  | { op: "tick" }
  | { op: "user" }
  | { op: "submission" }
  | { op: "hotspot-failed" }
  | { op: "settings" };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant("status" as const), connected: fc.boolean(), connectivity, label: fc.constantFrom(null, ...labels) }),
  fc.record({ op: fc.constant("resolve" as const), ok: fc.boolean(), connectivity }),
  fc.record({ op: fc.constant("stale" as const), label: fc.constantFrom(...labels), attempt: fc.integer({ min: 0, max: 30 }), ok: fc.boolean() }),
  fc.constant({ op: "tick" as const }),
  fc.constant({ op: "user" as const }),
  fc.constant({ op: "submission" as const }),
  fc.constant({ op: "hotspot-failed" as const }),
  fc.constant({ op: "settings" as const }),
);

const runArb = fc.tuple(settingsArb, fc.array(fc.tuple(fc.integer({ min: 0, max: 400 }), opArb), { maxLength: 80 }));

/** What the check knows of a run so far, besides the machine's own state. */
interface Run {
  settings: ProvisioningSettings;
  state: ReturnType<typeof initialProvisioningState>;
  now: number;
  hotspotUp: boolean;
  hotspotStartedAt: number;
  userActiveAt: number | null;
  offlineSince: number | null;
  rebooted: boolean;
  inFlight: Array<{ label: string; attempt: number }>;
  submittedAttempt: number;
  /** Whether the hotspot was up when the input now being checked arrived. */
  hotspotWhenFed: boolean;
}

/** Drives the reducer like the clock-driven machine would, checking every action against the rules. */
function check(settings: ProvisioningSettings, ops: Array<[number, Op]>): void {
  const run: Run = {
    settings,
    state: initialProvisioningState(),
    now: 0,
    hotspotUp: false,
    hotspotStartedAt: 0,
    userActiveAt: null,
    offlineSince: null,
    rebooted: false,
    inFlight: [],
    submittedAttempt: -1,
    hotspotWhenFed: false,
  };
  for (const [gap, op] of ops) {
    passTime(run, run.now + gap);
    applyOp(run, op);
    const { state, hotspotUp } = run;
    const phase = state.phase;
    // Liveness: whenever the machine waits on time alone, it has a deadline to wake it.
    if (phase.name === "hotspot" || phase.name === "offline" || (phase.name === "hotspot-exited" && phase.trying === null)) {
      expect(provisioningDeadline(state, settings)).toBeDefined();
    }
    if (phase.name !== "rebooting") expect(phase.name === "hotspot", "the machine's view of the hotspot matches what it asked for").toBe(hotspotUp);
  }
}

function feed(run: Run, input: ProvisioningInput): void {
  run.hotspotWhenFed = run.hotspotUp;
  const step = provisioningStep(run.state, input, run.settings);
  const wasOnline = run.state.phase.name === "online" || run.state.phase.name === "starting";
  run.state = step.state;
  const isOnline = run.state.phase.name === "online" || run.state.phase.name === "starting";
  if (isOnline) run.offlineSince = null;
  else if (wasOnline) run.offlineSince = run.now;
  for (const action of step.actions) checkAction(run, action, input);
}

function checkAction(run: Run, action: ProvisioningAction, cause: ProvisioningInput): void {
  const { settings, now } = run;
  expect(run.rebooted, "nothing is asked after a reboot").toBe(false);
  switch (action.kind) {
    case "start-hotspot":
      expect(run.hotspotUp, "never two hotspots").toBe(false);
      expect(run.offlineSince, "the hotspot only when offline").not.toBeNull();
      expect(now - run.offlineSince!, "the hotspot only after the offline delay").toBeGreaterThanOrEqual(settings.offlineBeforeHotspotMs);
      run.hotspotUp = true;
      run.hotspotStartedAt = now;
      // A failed portal submission brings the hotspot back for the person still on it.
      run.userActiveAt = cause.kind === "activation" && cause.attempt === run.submittedAttempt ? now : null;
      break;
    case "stop-hotspot": {
      expect(run.hotspotUp, "only a hotspot that is up is stopped").toBe(true);
      const idle = run.userActiveAt === null || now - run.userActiveAt >= settings.userIdleMs;
      const timedOut = now - run.hotspotStartedAt >= settings.retryConnectionMs && idle;
      expect(cause.kind === "submission" || run.state.phase.name === "online" || timedOut, "the hotspot is left only for a reason").toBe(true);
      run.hotspotUp = false;
      break;
    }
    case "activate":
      expect(run.hotspotUp, "no activation while the hotspot is up").toBe(false);
      expect(settings.networks.some((n) => n.label === action.label) || action.label === "provisioned").toBe(true);
      run.inFlight.push({ label: action.label, attempt: action.attempt });
      // Only a submission made on the portal leaves a person waiting for it to come back.
      if (cause.kind === "submission" && run.hotspotWhenFed) run.submittedAttempt = action.attempt;
      break;
    case "reboot":
      expect(settings.rebootAfterOfflineMs, "reboot only when configured").toBeGreaterThan(0);
      expect(run.offlineSince).not.toBeNull();
      expect(now - run.offlineSince!, "reboot only after the configured time offline").toBeGreaterThanOrEqual(settings.rebootAfterOfflineMs);
      expect(run.userActiveAt === null || !run.hotspotUp || now - run.userActiveAt >= settings.userIdleMs, "no reboot under an active user").toBe(true);
      run.rebooted = true;
      break;
    case "apply-profiles":
      expect(cause.kind).toBe("settings");
      break;
  }
}

/** Fires the machine's deadlines up to `until`, as its timer would. */
function passTime(run: Run, until: number): void {
  for (let sameMoment = 0; ; ) {
    const due = provisioningDeadline(run.state, run.settings);
    if (due === undefined || due > until) break;
    sameMoment = due <= run.now ? sameMoment + 1 : 0;
    expect(sameMoment, "a deadline moves on once it fired").toBeLessThan(3);
    run.now = Math.max(run.now, due);
    feed(run, { kind: "tick", now: run.now });
  }
  run.now = until;
}

/** One random input, fed as the network, the portal or the clock would give it. */
function applyOp(run: Run, op: Op): void {
  const { now } = run;
  switch (op.op) {
    case "status":
      feed(run, { kind: "status", now, connected: op.connected, connectivity: op.connectivity, label: op.label });
      break;
    case "resolve": {
      const pending = run.inFlight.shift();
      if (pending) feed(run, { kind: "activation", now, ...pending, ok: op.ok, connectivity: op.connectivity });
      break;
    }
    case "stale":
      if (!run.inFlight.some((p) => p.label === op.label && p.attempt === op.attempt)) {
        const before = run.state;
        feed(run, { kind: "activation", now, label: op.label, attempt: op.attempt, ok: op.ok, connectivity: "full" });
        expect(run.state, "a result for no attempt in flight changes nothing").toEqual(before);
      }
      break;
    case "tick":
      feed(run, { kind: "tick", now });
      break;
    case "user":
      if (run.hotspotUp) run.userActiveAt = now;
      feed(run, { kind: "user-activity", now });
      break;
    case "submission":
      feed(run, { kind: "submission", now, label: "provisioned" });
      break;
    case "hotspot-failed":
      if (run.hotspotUp && now === run.hotspotStartedAt) {
        run.hotspotUp = false;
        feed(run, { kind: "hotspot-failed", now });
      }
      break;
    case "settings":
      feed(run, { kind: "settings", now });
      break;
  }
}

describe("provisioning properties", () => {
  it("never asks for two hotspots, an activation under the hotspot, an early reboot or an early hotspot", () => {
    fc.assert(fc.property(runArb, ([settings, ops]) => check(settings, ops)), { numRuns: 1_500 });
  });

  it("with networks that never come up, keeps cycling between the hotspot and retries until a reboot (when set)", () => {
    fc.assert(
      fc.property(settingsArb.map((s) => ({ ...s, offlineBeforeHotspotMs: s.offlineBeforeHotspotMs + 20, retryConnectionMs: s.retryConnectionMs + 20 })), (settings) => {
        // Always offline, every activation fails at once, nobody on the portal.
        let state = initialProvisioningState();
        let now = 0;
        const kinds: string[] = [];
        const feed = (input: ProvisioningInput) => {
          const step = provisioningStep(state, input, settings);
          state = step.state;
          for (const a of step.actions) {
            kinds.push(a.kind);
            if (a.kind === "activate") feed({ kind: "activation", now, label: a.label, attempt: a.attempt, ok: false, connectivity: "none" });
          }
        };
        feed({ kind: "status", now, connected: false, connectivity: "none", label: null });
        for (let i = 0; i < 500 && state.phase.name !== "rebooting"; i++) {
          const due = provisioningDeadline(state, settings);
          if (due === undefined) break;
          now = due;
          feed({ kind: "tick", now });
        }
        if (settings.rebootAfterOfflineMs > 0) {
          expect(kinds.at(-1)).toBe("reboot");
        } else {
          expect(kinds.filter((k) => k === "start-hotspot").length).toBeGreaterThan(3);
          expect(state.phase.name === "hotspot" || state.phase.name === "hotspot-exited").toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
