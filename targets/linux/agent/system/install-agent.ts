// `svc-agent --install`: writes the unit /etc/systemd/system/svc-agent.service and the
// self-update fallback /opt/svc/agent/fallback.sh, then has systemd reload its units and enable and
// start the agent. Running it again changes nothing that is already right.
// Every path goes under a root prefix ("/" on a device), so tests run it in a directory; the
// systemctl commands go through the runner it is given, which under a root prefix runs none
// (system-command-runner.ts).
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { enableUnit, InstallError, type CommandRunner } from "../../system/index.js";
import { AGENT_EXECUTABLE, AGENT_SERVICE_NAME, AGENT_UNIT_PATH, FALLBACK_SCRIPT_PATH, agentUnitText, type AgentUnitOptions } from "./agent-unit.js";
import { FALLBACK_SCRIPT } from "./fallback-script.js";
import { writeIfChanged } from "../../system/atomic-file.js";

export interface InstallAgentOptions {
  run: CommandRunner;
  /** Default "/". */
  root?: string;
  unit?: AgentUnitOptions;
}

export interface InstallAgentResult {
  unitPath: string;
  unitText: string;
  fallbackPath: string;
  /** The files written this time (none when everything was already in place). */
  written: string[];
  /** The commands handed to the runner, as typed. */
  commands: string[];
}

export async function installAgentService(options: InstallAgentOptions): Promise<InstallAgentResult> {
  const root = resolve(options.root ?? "/");
  const executable = options.unit?.executable ?? AGENT_EXECUTABLE;
  // A unit whose program is missing would restart forever: refuse before enabling it.
  if (!existsSync(join(root, executable))) {
    throw new InstallError(`${join(root, executable)} does not exist: install an agent version first (tools/install.sh does)`);
  }
  const unitPath = join(root, AGENT_UNIT_PATH);
  const fallbackPath = join(root, options.unit?.fallbackScript ?? FALLBACK_SCRIPT_PATH);
  const unitText = agentUnitText(options.unit);

  const written: string[] = [];
  try {
    if (writeIfChanged(unitPath, unitText, 0o644)) written.push(unitPath);
    if (writeIfChanged(fallbackPath, FALLBACK_SCRIPT, 0o755)) written.push(fallbackPath);
  } catch (cause) {
    throw new InstallError((cause as Error).message, { cause });
  }

  const commands = await enableUnit(options.run, AGENT_SERVICE_NAME);
  return { unitPath, unitText, fallbackPath, written, commands };
}
