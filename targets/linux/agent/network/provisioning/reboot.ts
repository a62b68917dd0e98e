// Rebooting the device through the system's executor: `systemctl reboot` run by the injected
// command runner (tests record the command instead of running it).
import type { Logger } from "../../../../../core/index.js";
import type { CommandRunner } from "../../../system/index.js";

export interface SystemRebootOptions {
  run: CommandRunner;
  logger: Logger;
}

export function createSystemReboot(options: SystemRebootOptions): () => Promise<void> {
  return async () => {
    options.logger.warn("rebooting the device: offline too long");
    const result = await options.run("systemctl", ["reboot"]);
    if (result.code !== 0) {
      const said = (result.stderr || result.stdout).trim();
      throw new Error(`systemctl reboot failed (exit ${result.code ?? "none"})${said ? `: ${said}` : ""}`);
    }
  };
}
