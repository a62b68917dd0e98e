// The configuration in force, as the machine's events tell it: for followers that read it often
// (auth on every call, the browser rules on every request) without asking the machine each time.
// An edit the machine takes is in force at once; one it refuses changes nothing.
import type { MachineConfig } from "../config/index.js";
import type { Machine } from "./machine-types.js";

/** Follows `machine` from now on; `before` is in force until a configuration is taken. */
export function followConfigInForce(machine: Pick<Machine, "onConfig">, before: MachineConfig): () => MachineConfig {
  let inForce = before;
  machine.onConfig((event) => {
    inForce = event.running?.config ?? before;
  });
  return () => inForce;
}
