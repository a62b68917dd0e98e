// svc-agent's entry point: reads the command line and the environment, then starts the agent.
import { parseFlags, formatHelp, UsageError } from "../cli/flags.js";
import { agentFlags, agentUsage } from "./options.js";
import { runAgent } from "./run.js";

let flags;
try {
  flags = parseFlags(agentFlags, process.argv.slice(2), process.env);
  if (flags.positional.length > 0) throw new UsageError(`unexpected argument: ${flags.positional[0]}`);
} catch (e) {
  if (!(e instanceof UsageError)) throw e;
  process.stderr.write(`svc-agent: ${e.message}\n\n${formatHelp(agentUsage, agentFlags, "gnu")}`);
  process.exit(2);
}

if (flags.values.help) {
  process.stdout.write(formatHelp(agentUsage, agentFlags, "gnu"));
  process.exit(0);
}
process.exitCode = await runAgent(flags, process.env);
