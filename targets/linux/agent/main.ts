// svc-agent's entry point: reads the command line and the environment, then runs the agent.
import { parseCommandLineOrExit } from "../cli/flags.js";
import { SVC_VERSION } from "../version.js";
import { agentFlags, agentUsage } from "./options.js";
import { runAgent } from "./run.js";

const flags = parseCommandLineOrExit("svc-agent", agentFlags, agentUsage, "gnu");
if (flags.values.version) {
  process.stdout.write(`svc-agent ${SVC_VERSION}\n`);
} else {
  process.exitCode = await runAgent(flags, process.env);
}
