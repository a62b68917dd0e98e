// Public face of the Linux system pieces shared by svc-server and svc-agent: running system
// commands through an injectable runner, quoting for systemd units and enabling them, making
// directories, work run one piece at a time, folders held by a live process whose process groups
// the next one stops when it died, and the errors of a listener or an install that cannot start.
export { createCommandRunner, type CommandResult, type CommandRunner } from "./command-runner.js";
export { systemdQuote } from "./systemd-quote.js";
export { makeDirectorySync } from "./make-directory.js";
export { createOwnedFolder, type OwnedFolder } from "./owned-folder.js";
export { sweepOwnedFolders, describeSweep, type SweptFolder, type SweepOptions } from "./sweep-owned-folders.js";
export { stopProcessGroups, membersOf, type ProcessGroupRecord, type StoppedGroup } from "./process-groups.js";
export { readProcess, processStartTime, type ProcessInfo } from "./process-table.js";
export { MODULE_FOLDER_PREFIX, sweepModuleFolders, temporaryFolderOf, type ModuleFolderSweepOptions } from "./module-folders.js";
export { ListenError } from "./listen-error.js";
export { InstallError } from "./install-error.js";
export { enableUnit } from "./enable-unit.js";
export { followLines, MAX_OUTPUT_LINE_BYTES } from "./follow-lines.js";
