// Activating a profile on a device and waiting for the outcome. NetworkManager answers
// ActivateConnection at once with an active connection object; the outcome comes later as that
// object's StateChanged (activated, or deactivated) while the device's own StateChanged carries
// the reason code of a failure. Signals are collected from before the call, so an activation that
// completes before its path is known is not missed.
import { errorMessage, type Clock } from "../../../../../core/index.js";
import type { ActivationResult } from "../network-backend.js";
import { NM_PATH, type NmBus, type NmSignal } from "./nm-bus.js";
import {
  ACTIVE_INTERFACE,
  ACTIVE_STATE_ACTIVATED,
  ACTIVE_STATE_DEACTIVATED,
  DEVICE_INTERFACE,
  DEVICE_REASON_CARRIER,
  DEVICE_STATE_FAILED,
  DEVICE_STATE_UNAVAILABLE,
  NM_INTERFACE,
  WIRED_INTERFACE,
  activeReasonWords,
  deviceReasonWords,
} from "./nm-constants.js";

export interface ActivationRequest {
  profilePath: string;
  devicePath: string;
  interfaceName: string;
  timeoutMs: number;
  /** Real time, for the time-out. */
  clock: Clock;
}

function activeStateOf(signal: NmSignal): { state: number; reason?: number } | undefined {
  if (signal.interface === ACTIVE_INTERFACE && signal.member === "StateChanged") {
    const [state, reason] = signal.body as [number, number];
    return { state, reason };
  }
  if (signal.interface === "org.freedesktop.DBus.Properties" && signal.member === "PropertiesChanged") {
    const [iface, changed] = signal.body as [string, Record<string, { value?: unknown }>];
    if (iface === ACTIVE_INTERFACE && changed?.State !== undefined) return { state: Number(changed.State.value) };
  }
  return undefined;
}

export async function activateAndWait(nm: NmBus, request: ActivationRequest): Promise<ActivationResult> {
  const states = new Map<string, { state: number; reason?: number }>();
  let deviceFailure: number | undefined;
  let wake: () => void = () => undefined;

  const off = nm.onSignal((signal) => {
    if (signal.path === request.devicePath && signal.interface === DEVICE_INTERFACE && signal.member === "StateChanged") {
      const [state, , reason] = signal.body as [number, number, number];
      if (state === DEVICE_STATE_FAILED) deviceFailure = reason;
      return;
    }
    const active = activeStateOf(signal);
    if (active) {
      states.set(signal.path, { ...states.get(signal.path), ...active });
      wake();
    }
  });

  // The device's own failure reason says most; a device left unavailable (no carrier, radio off)
  // says more than "the device disconnected"; the active connection's reason comes last.
  const failure = async (activeReason: number | undefined): Promise<ActivationResult> => {
    if (deviceFailure !== undefined) return { ok: false, reason: deviceReasonWords(deviceFailure) };
    const [state, reason] = await nm.get<[number, number]>(request.devicePath, DEVICE_INTERFACE, "StateReason").catch(() => [0, 0]);
    const carrier = await nm.get<boolean>(request.devicePath, WIRED_INTERFACE, "Carrier").catch(() => undefined);
    if (carrier === false || (state === DEVICE_STATE_UNAVAILABLE && reason === DEVICE_REASON_CARRIER)) {
      return { ok: false, reason: `${request.interfaceName} has no carrier (link down or cable unplugged)` };
    }
    if (state === DEVICE_STATE_UNAVAILABLE) return { ok: false, reason: `${request.interfaceName} is unavailable` };
    if (activeReason !== undefined) return { ok: false, reason: activeReasonWords(activeReason) };
    return { ok: false, reason: "the connection was deactivated" };
  };

  const { clock } = request;
  let timer: unknown;
  try {
    let activePath: string;
    try {
      const [path] = await nm.call(NM_PATH, NM_INTERFACE, "ActivateConnection", "ooo", [request.profilePath, request.devicePath, "/"]);
      activePath = String(path);
    } catch (error) {
      return { ok: false, reason: errorMessage(error) };
    }

    const timedOut = new Promise<"timeout">((resolve) => {
      timer = clock.setTimeout(() => resolve("timeout"), request.timeoutMs);
    });
    const initial = await nm.get<number>(activePath, ACTIVE_INTERFACE, "State").catch(() => ACTIVE_STATE_DEACTIVATED);
    if (!states.has(activePath)) states.set(activePath, { state: initial });

    for (;;) {
      const seen = states.get(activePath);
      if (seen?.state === ACTIVE_STATE_ACTIVATED) return { ok: true, interface: request.interfaceName };
      if (seen?.state === ACTIVE_STATE_DEACTIVATED) return failure(seen.reason);
      const changed = new Promise<"changed">((resolve) => {
        wake = () => resolve("changed");
      });
      if ((await Promise.race([changed, timedOut])) === "timeout") {
        return { ok: false, reason: `no result within ${Math.round(request.timeoutMs / 1000)} s` };
      }
    }
  } finally {
    clock.clearTimeout(timer);
    off();
  }
}
