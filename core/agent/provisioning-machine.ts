// The provisioning reducer on a clock: stamps each input with the time, keeps one timer for the
// next deadline (hotspot delay, retry time-out, user idle, reboot) and hands every batch of
// actions to the owner, who carries them out and reports back with more inputs.
import type { Clock } from "../clock.js";
import { initialProvisioningState, provisioningDeadline, provisioningStep } from "./provisioning.js";
import type { ProvisioningAction, ProvisioningInput, ProvisioningSettings, ProvisioningState } from "./provisioning-types.js";

/** An input without its time: the machine reads the clock. */
export type ProvisioningEvent = ProvisioningInput extends infer T ? (T extends unknown ? Omit<T, "now"> : never) : never;

export interface ProvisioningMachineOptions {
  clock: Clock;
  /** Read at every step, so a settings change applies from the next input on. */
  settings: () => ProvisioningSettings;
  /** Called with each non-empty batch of actions, in order, after the state has moved. */
  onActions: (actions: ProvisioningAction[], state: ProvisioningState) => void;
  /** Called after every step, with or without actions. */
  onState?: (state: ProvisioningState) => void;
}

export interface ProvisioningMachine {
  send(event: ProvisioningEvent): void;
  state(): ProvisioningState;
  /** Stops the timer; later inputs are ignored. */
  close(): void;
}

export function createProvisioningMachine(options: ProvisioningMachineOptions): ProvisioningMachine {
  const { clock } = options;
  let state = initialProvisioningState();
  let timer: unknown;
  let closed = false;
  // Inputs sent from inside onActions wait their turn, so every step sees the state of the one before.
  const queue: ProvisioningEvent[] = [];
  let running = false;

  function schedule(): void {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
    const due = provisioningDeadline(state, options.settings());
    if (due === undefined || closed) return;
    timer = clock.setTimeout(() => {
      timer = undefined;
      send({ kind: "tick" });
    }, Math.max(0, due - clock.now()));
  }

  function send(event: ProvisioningEvent): void {
    if (closed) return;
    queue.push(event);
    if (running) return;
    running = true;
    try {
      for (let next = queue.shift(); next !== undefined && !closed; next = queue.shift()) {
        const input = { ...next, now: clock.now() } as ProvisioningInput;
        const step = provisioningStep(state, input, options.settings());
        state = step.state;
        schedule();
        options.onState?.(state);
        if (step.actions.length > 0) options.onActions(step.actions, state);
      }
    } finally {
      running = false;
      queue.length = 0;
    }
  }

  return {
    send,
    state: () => state,
    close() {
      closed = true;
      if (timer !== undefined) clock.clearTimeout(timer);
      timer = undefined;
    },
  };
}
