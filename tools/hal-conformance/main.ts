// Entry of the svc-hal-conformance command (bundled to dist/linux/svc-hal-conformance.mjs).
import { runCli } from "./cli.js";

process.exitCode = await runCli(process.argv.slice(2), (line) => process.stdout.write(`${line}\n`));
