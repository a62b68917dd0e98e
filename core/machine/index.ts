// Public face of core/machine: the one pipeline every target runs (configuration text -> parse
// once -> screen -> acceptance -> log levels -> graph, followed through config events) and the
// RobotService assembly both targets serve.
export { createMachine } from "./machine.js";
export { followConfigInForce } from "./config-in-force.js";
export type {
  ConfigEvent,
  ConfigInput,
  ConfigListener,
  ConfigScreen,
  LoadOptions,
  LoadResult,
  Machine,
  MachineModules,
  MachineOptions,
  Refusal,
  RunningConfig,
} from "./machine-types.js";
export { createRobotAssembly } from "./robot-assembly.js";
export type { RobotAssembly, RobotAssemblyOptions } from "./robot-assembly.js";
