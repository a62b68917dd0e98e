// svc-server's entry point: reads the command line, then validates, reports or runs.
import { parseFlags, formatHelp, UsageError } from "../cli/flags.js";
import { serverFlags, serverUsage } from "./options.js";
import { validateConfigFile } from "./validate-command.js";
import { runServer } from "./run.js";
import packageJson from "../../../package.json";

function exitWith(code: number, text?: string, stream: NodeJS.WritableStream = process.stderr): never {
  if (text) stream.write(text.endsWith("\n") ? text : `${text}\n`);
  process.exit(code);
}

let flags;
try {
  flags = parseFlags(serverFlags, process.argv.slice(2), process.env);
  if (flags.positional.length > 0) throw new UsageError(`unexpected argument: ${flags.positional[0]}`);
} catch (e) {
  if (!(e instanceof UsageError)) throw e;
  exitWith(2, `svc-server: ${e.message}\n\n${formatHelp(serverUsage, serverFlags)}`);
}
const { values } = flags;

if (values.help) exitWith(0, formatHelp(serverUsage, serverFlags), process.stdout);
if (values.version) exitWith(0, `svc-server ${packageJson.version}`, process.stdout);
if (values.validate) {
  if (typeof values.config !== "string") exitWith(2, "svc-server: -validate needs -config <filename>");
  const result = validateConfigFile(values.config);
  exitWith(result.exitCode, result.lines.join("\n"), result.exitCode === 0 ? process.stdout : process.stderr);
}

process.exitCode = await runServer(flags);
