// The last step of installing a systemd service, the same for svc-server and svc-agent: systemd
// reads its units again, then enables and starts the service. daemon-reload runs even when the
// unit did not change: an earlier install may have written it and failed before systemd read it.
import type { CommandRunner } from "./command-runner.js";
import { InstallError } from "./install-error.js";

/** Runs the commands through `run`; returns them as typed. Throws InstallError naming the one that failed. */
export async function enableUnit(run: CommandRunner, service: string): Promise<string[]> {
  const commands: string[] = [];
  for (const args of [["daemon-reload"], ["enable", "--now", service]]) {
    const typed = `systemctl ${args.join(" ")}`;
    commands.push(typed);
    const result = await run("systemctl", args);
    if (result.code !== 0) {
      const said = (result.stderr || result.stdout).trim();
      throw new InstallError(`${typed} failed (${result.code === null ? "could not run" : `exit ${result.code}`})${said ? `: ${said}` : ""}`);
    }
  }
  return commands;
}
