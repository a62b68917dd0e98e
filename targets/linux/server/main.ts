// svc-server's entry point: reads the command line, then reads FTDC files, validates, reports or runs.
import { parseCommandLineOrExit } from "../cli/flags.js";
import { serverFlags, serverUsage } from "./options.js";
import { validateConfigFile } from "./validate-command.js";
import { runServer } from "./run.js";
import { runFtdcCommand } from "./ftdc/index.js";
import { SVC_VERSION } from "../version.js";

// `svc-server ftdc FILE...` reads diagnostics files; anything else is the server's command line.
if (process.argv[2] === "ftdc") {
  process.exit(runFtdcCommand(process.argv.slice(3)));
}

const flags = parseCommandLineOrExit("svc-server", serverFlags, serverUsage, "go");
const { values } = flags;

if (values.version) {
  process.stdout.write(`svc-server ${SVC_VERSION}\n`);
  process.exit(0);
}
if (values.validate) {
  if (typeof values.config !== "string") {
    process.stderr.write("svc-server: -validate needs -config <filename>\n");
    process.exit(2);
  }
  const result = validateConfigFile(values.config);
  (result.exitCode === 0 ? process.stdout : process.stderr).write(`${result.lines.join("\n")}\n`);
  process.exit(result.exitCode);
}

process.exitCode = await runServer(flags);
