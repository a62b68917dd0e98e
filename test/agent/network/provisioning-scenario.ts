// A provisioning run as pure data: settings, then steps (events, and clock advances that fire the
// machine's own timers). Returns every batch of actions with its time and the phase after it, so
// the same run can be made on Node and in XS and the answers compared.
import { createManualClock } from "../../../core/manual-clock.js";
import { createProvisioningMachine, type ProvisioningEvent } from "../../../core/agent/provisioning-machine.js";
import type { ProvisioningAction, ProvisioningPhase, ProvisioningSettings } from "../../../core/agent/provisioning-types.js";

export type ProvisioningScenarioStep =
  | { advance: number }
  /** Answers the last `activate` asked for. */
  | { activated: { ok: boolean; connectivity?: "unknown" | "none" | "portal" | "limited" | "full" } }
  | { event: ProvisioningEvent };

export interface ProvisioningScenarioInput {
  settings: ProvisioningSettings;
  /** Clock reading at the start; 0 when absent. */
  start?: number;
  steps: ProvisioningScenarioStep[];
}

export interface ProvisioningScenarioRecord {
  at: number;
  actions: ProvisioningAction[];
  phase: ProvisioningPhase;
}

export interface ProvisioningScenarioOutput {
  records: ProvisioningScenarioRecord[];
  final: ProvisioningPhase;
}

export function runProvisioningScenario(input: ProvisioningScenarioInput): ProvisioningScenarioOutput {
  const clock = createManualClock(input.start ?? 0);
  const records: ProvisioningScenarioRecord[] = [];
  let lastActivate: { label: string; attempt: number } | undefined;
  const machine = createProvisioningMachine({
    clock,
    settings: () => input.settings,
    onActions(actions, state) {
      for (const action of actions) if (action.kind === "activate") lastActivate = { label: action.label, attempt: action.attempt };
      records.push({ at: clock.now(), actions, phase: state.phase });
    },
  });
  for (const step of input.steps) {
    if ("advance" in step) clock.advance(step.advance);
    else if ("activated" in step) {
      if (lastActivate === undefined) continue;
      const { ok, connectivity = ok ? "full" : "none" } = step.activated;
      machine.send({ kind: "activation", ...lastActivate, ok, connectivity });
    } else machine.send(step.event);
  }
  machine.close();
  return { records, final: machine.state().phase };
}
