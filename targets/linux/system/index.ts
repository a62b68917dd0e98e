// Public face of the Linux system pieces shared by svc-server and svc-agent: running system
// commands through an injectable runner, quoting for systemd units, and making directories.
export { createCommandRunner, type CommandResult, type CommandRunner } from "./command-runner.js";
export { systemdQuote } from "./systemd-quote.js";
export { makeDirectorySync } from "./make-directory.js";
