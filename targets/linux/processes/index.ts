// Programs the configuration's `processes` asks svc-server to run beside the machine: one-shot
// ones once per configuration, the others kept running, all stopped after the machine.
export { createProcessManager, followConfigProcesses, processLoggerName } from "./process-manager.js";
export type { ProcessManager, ProcessManagerOptions } from "./process-manager.js";
export type { ProcessState, ProcessStatus } from "./process-supervisor.js";
