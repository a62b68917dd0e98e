// Public face of the server's system integration: --aix-install (systemd), -untrusted-env,
// and shutdown on signals.
export { createCommandRunner, InstallError, systemdQuote, type CommandResult, type CommandRunner } from "../../system/index.js";
export { installServerService, type InstallOptions, type InstallResult } from "./install-service.js";
export { runningExecutable, type ProcessFacts } from "./running-executable.js";
export { SERVICE_NAME, serverUnitText, type ServerUnitOptions } from "./systemd-unit.js";
export { findUntrustedEntries, untrustedEntryIssues, type UntrustedEntry } from "./untrusted-env.js";
export { handleShutdownSignals, type ShutdownSignalOptions, type ShutdownSignals } from "./shutdown-signals.js";
