// svc-agent's entry point: reads the command line and the environment, then starts the agent.
import { parseCommandLineOrExit } from "../cli/flags.js";
import { agentFlags, agentUsage } from "./options.js";
import { runAgent } from "./run.js";

const flags = parseCommandLineOrExit("svc-agent", agentFlags, agentUsage, "gnu");
process.exitCode = await runAgent(flags, process.env);
