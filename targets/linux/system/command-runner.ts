// Runs a system command (systemctl) and collects what it said; injected where tests record
// the commands instead of running them.
import { execFile } from "node:child_process";

export interface CommandResult {
  /** The exit code; null when the command could not be started or was killed. */
  code: number | null;
  stdout: string;
  stderr: string;
}

export type CommandRunner = (command: string, args: readonly string[]) => Promise<CommandResult>;

export function createCommandRunner(timeoutMs = 120_000): CommandRunner {
  return (command, args) =>
    new Promise((resolve) => {
      execFile(command, [...args], { timeout: timeoutMs, encoding: "utf8" }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
        resolve({ code, stdout, stderr: stderr || (error && code === null ? error.message : "") });
      });
    });
}
