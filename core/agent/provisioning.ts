// The provisioning state machine as a pure reducer: (state, input, settings) -> (state, actions).
// Online until the connection (or, when the internet is required, connectivity) is lost; then
// the agent's networks are tried highest priority first, one at a time; offline longer than the
// hotspot delay brings the hotspot up; after the retry time-out with nobody on the portal the
// hotspot is left to try the networks again, and comes back when nothing changed. Rebooting
// after a long time offline waits for an active portal user to go idle.
import type {
  NetworkConnectivity,
  ProvisioningAction,
  ProvisioningInput,
  ProvisioningPhase,
  ProvisioningSettings,
  ProvisioningState,
  ProvisioningStep,
} from "./provisioning-types.js";

export function initialProvisioningState(): ProvisioningState {
  return { phase: { name: "starting" }, attempts: 0 };
}

/** Whether a network status counts as online under the settings. */
export function countsAsOnline(settings: ProvisioningSettings, connected: boolean, connectivity: NetworkConnectivity): boolean {
  return connected && (!settings.requireInternet || connectivity === "full");
}

/** The offline phases (offline, trying, hotspot-exited) seen alike. */
interface Waiting {
  since: number;
  /** When the wait for the hotspot began: the loss of the connection, or the hotspot's exit. */
  waitSince: number;
  tried: string[];
  trying: string | null;
  attempt: number;
  afterHotspot: boolean;
  fromHotspot: boolean;
}

function waitingOf(phase: ProvisioningPhase): Waiting | undefined {
  switch (phase.name) {
    case "offline":
      return { ...phase, trying: null, attempt: 0, afterHotspot: false, fromHotspot: false };
    case "trying":
      return { ...phase, trying: phase.label, afterHotspot: false };
    case "hotspot-exited":
      return { ...phase, waitSince: phase.exitedAt, afterHotspot: true, fromHotspot: false };
    default:
      return undefined;
  }
}

function phaseOf(w: Waiting): ProvisioningPhase {
  if (w.afterHotspot) return { name: "hotspot-exited", since: w.since, exitedAt: w.waitSince, tried: w.tried, trying: w.trying, attempt: w.attempt };
  if (w.trying !== null) {
    return { name: "trying", label: w.trying, attempt: w.attempt, since: w.since, waitSince: w.waitSince, tried: w.tried, fromHotspot: w.fromHotspot };
  }
  return { name: "offline", since: w.since, waitSince: w.waitSince, tried: w.tried };
}

function userIdle(settings: ProvisioningSettings, userActiveAt: number | null, now: number): boolean {
  return userActiveAt === null || now - userActiveAt >= settings.userIdleMs;
}

function rebootDue(settings: ProvisioningSettings, since: number, now: number): boolean {
  return settings.rebootAfterOfflineMs > 0 && now - since >= settings.rebootAfterOfflineMs;
}

function startHotspot(settings: ProvisioningSettings): ProvisioningAction {
  const { ssid, password, interface: iface } = settings.hotspot;
  return { kind: "start-hotspot", ssid, password, interface: iface };
}

/**
 * Moves an offline phase on: reboot when offline long enough, else the next untried network,
 * else the hotspot once the delay has passed. Nothing new starts while an activation is out.
 */
function advance(state: ProvisioningState, w: Waiting, now: number, settings: ProvisioningSettings, actions: ProvisioningAction[]): ProvisioningStep {
  if (rebootDue(settings, w.since, now)) {
    actions.push({ kind: "reboot" });
    return { state: { ...state, phase: { name: "rebooting", since: w.since, at: now } }, actions };
  }
  if (w.trying !== null) return { state: { ...state, phase: phaseOf(w) }, actions };
  const next = settings.networks.find((n) => w.tried.indexOf(n.label) < 0);
  if (next !== undefined) {
    const attempt = state.attempts + 1;
    actions.push({ kind: "activate", label: next.label, attempt });
    const phase = phaseOf({ ...w, tried: w.tried.concat([next.label]), trying: next.label, attempt, fromHotspot: false });
    return { state: { phase, attempts: attempt }, actions };
  }
  if (now - w.waitSince >= settings.offlineBeforeHotspotMs) {
    actions.push(startHotspot(settings));
    return { state: { ...state, phase: { name: "hotspot", since: w.since, startedAt: now, userActiveAt: null } }, actions };
  }
  return { state: { ...state, phase: phaseOf(w) }, actions };
}

function lost(state: ProvisioningState, now: number, tried: string[], settings: ProvisioningSettings): ProvisioningStep {
  const w: Waiting = { since: now, waitSince: now, tried, trying: null, attempt: 0, afterHotspot: false, fromHotspot: false };
  return advance(state, w, now, settings, []);
}

function onHotspotTime(state: ProvisioningState, phase: Extract<ProvisioningPhase, { name: "hotspot" }>, now: number, settings: ProvisioningSettings): ProvisioningStep {
  if (!userIdle(settings, phase.userActiveAt, now)) return { state, actions: [] };
  if (rebootDue(settings, phase.since, now)) return { state: { ...state, phase: { name: "rebooting", since: phase.since, at: now } }, actions: [{ kind: "reboot" }] };
  if (now - phase.startedAt < settings.retryConnectionMs) return { state, actions: [] };
  const w: Waiting = { since: phase.since, waitSince: now, tried: [], trying: null, attempt: 0, afterHotspot: true, fromHotspot: false };
  return advance(state, w, now, settings, [{ kind: "stop-hotspot" }]);
}

export function provisioningStep(state: ProvisioningState, input: ProvisioningInput, settings: ProvisioningSettings): ProvisioningStep {
  const phase = state.phase;
  const now = input.now;
  if (phase.name === "rebooting") return { state, actions: [] };
  const waiting = waitingOf(phase);

  switch (input.kind) {
    case "settings": {
      const actions: ProvisioningAction[] = [{ kind: "apply-profiles" }];
      if (waiting !== undefined) return advance(state, waiting, now, settings, actions);
      return { state, actions };
    }

    case "status": {
      const online = countsAsOnline(settings, input.connected, input.connectivity);
      if (phase.name === "online") {
        if (online) return { state: { ...state, phase: { name: "online", label: input.label } }, actions: [] };
        return lost(state, now, phase.label === null ? [] : [phase.label], settings);
      }
      if (online) {
        const actions: ProvisioningAction[] = phase.name === "hotspot" ? [{ kind: "stop-hotspot" }] : [];
        return { state: { ...state, phase: { name: "online", label: input.label } }, actions };
      }
      if (phase.name === "starting") return lost(state, now, [], settings);
      if (phase.name === "hotspot") return onHotspotTime(state, phase, now, settings);
      if (waiting !== undefined) return advance(state, waiting, now, settings, []);
      return { state, actions: [] };
    }

    case "activation": {
      if (waiting === undefined || waiting.trying !== input.label || waiting.attempt !== input.attempt) return { state, actions: [] };
      if (input.ok && countsAsOnline(settings, true, input.connectivity)) {
        return { state: { ...state, phase: { name: "online", label: input.label } }, actions: [] };
      }
      if (waiting.fromHotspot) {
        // The person who submitted is waiting for the portal to come back with the error.
        const hotspot: ProvisioningPhase = { name: "hotspot", since: waiting.since, startedAt: now, userActiveAt: now };
        return { state: { ...state, phase: hotspot }, actions: [startHotspot(settings)] };
      }
      return advance(state, { ...waiting, trying: null }, now, settings, []);
    }

    case "tick":
      if (waiting !== undefined) return advance(state, waiting, now, settings, []);
      if (phase.name === "hotspot") return onHotspotTime(state, phase, now, settings);
      return { state, actions: [] };

    case "user-activity":
      if (phase.name !== "hotspot") return { state, actions: [] };
      return { state: { ...state, phase: { ...phase, userActiveAt: now } }, actions: [] };

    case "submission": {
      const attempt = state.attempts + 1;
      const activate: ProvisioningAction = { kind: "activate", label: input.label, attempt };
      if (phase.name === "hotspot") {
        const next: ProvisioningPhase = {
          name: "trying", label: input.label, attempt, since: phase.since, waitSince: now, tried: [input.label], fromHotspot: true,
        };
        return { state: { phase: next, attempts: attempt }, actions: [{ kind: "stop-hotspot" }, activate] };
      }
      // Offline without the hotspot: new credentials are tried next, unless something is being tried now.
      if (waiting === undefined) return { state, actions: [] };
      const tried = waiting.tried.filter((label) => label !== input.label);
      if (waiting.trying !== null) return { state: { ...state, phase: phaseOf({ ...waiting, tried }) }, actions: [] };
      const next = phaseOf({ ...waiting, tried: tried.concat([input.label]), trying: input.label, attempt });
      return { state: { phase: next, attempts: attempt }, actions: [activate] };
    }

    case "hotspot-failed": {
      if (phase.name !== "hotspot") return { state, actions: [] };
      // Without a hotspot the networks are tried again and the hotspot retried after the delay.
      const w: Waiting = { since: phase.since, waitSince: now, tried: [], trying: null, attempt: 0, afterHotspot: false, fromHotspot: false };
      return advance(state, w, now, settings, []);
    }
  }
}

/** The next moment a `tick` can change anything, or undefined when only an event can. */
export function provisioningDeadline(state: ProvisioningState, settings: ProvisioningSettings): number | undefined {
  const phase = state.phase;
  const reboot = (since: number) => (settings.rebootAfterOfflineMs > 0 ? since + settings.rebootAfterOfflineMs : Infinity);
  let due = Infinity;
  if (phase.name === "hotspot") {
    const idleAt = phase.userActiveAt === null ? -Infinity : phase.userActiveAt + settings.userIdleMs;
    due = Math.max(Math.min(phase.startedAt + settings.retryConnectionMs, reboot(phase.since)), idleAt);
  } else {
    const w = waitingOf(phase);
    if (w === undefined) return undefined;
    due = reboot(w.since);
    const untried = settings.networks.some((n) => w.tried.indexOf(n.label) < 0);
    if (w.trying === null && !untried) due = Math.min(due, w.waitSince + settings.offlineBeforeHotspotMs);
  }
  return due === Infinity ? undefined : due;
}
