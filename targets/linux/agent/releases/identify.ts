// An artifact given by URL comes without a checksum, so before it is accepted it has to say what
// it is: run with `--version` (or `-version`), it must answer `<its product name> <version>`.
// That answer is also where its version comes from.
import { execFile } from "node:child_process";
import { parseSemver } from "../../../../core/index.js";
import { EXECUTABLE_NAMES, type Product } from "../agent-paths.js";
import { ReleaseError } from "./release-error.js";

export interface IdentifyOptions {
  /** How long the executable may take to answer each flag. Default 10 s. */
  timeoutMs?: number;
}

function ask(file: string, flag: string, timeoutMs: number): Promise<{ output: string; error?: string }> {
  return new Promise((resolve) => {
    execFile(file, [flag], { timeout: timeoutMs, maxBuffer: 64 * 1024, killSignal: "SIGKILL" }, (error, stdout, stderr) => {
      // Only a clean exit with the answer on stdout counts; stderr is kept to explain a refusal.
      if (error) resolve({ output: "", error: `${stderr}`.trim().split("\n")[0] || error.message.split("\n")[0] });
      else resolve({ output: `${stdout}`.trim() });
    });
  });
}

/** The version `file` says it is; a ReleaseError when it does not answer as `product`. */
export async function identifyExecutable(file: string, product: Product, options: IdentifyOptions = {}): Promise<string> {
  const name = EXECUTABLE_NAMES[product];
  const answers: string[] = [];
  for (const flag of ["--version", "-version"]) {
    const { output, error } = await ask(file, flag, options.timeoutMs ?? 10_000);
    const first = output.split("\n")[0]!.trim();
    const words = first.split(/\s+/);
    if (words[0] === name && words.length >= 2) {
      const version = words[1]!.replace(/^v(?=[0-9])/, "");
      if (parseSemver(version)) return version;
      throw new ReleaseError(`${file} answered ${JSON.stringify(first)}: ${JSON.stringify(words[1])} is not a semantic version`);
    }
    answers.push(`${flag}: ${first ? JSON.stringify(first.slice(0, 120)) : error ?? "no output"}`);
  }
  throw new ReleaseError(`${file} is not ${name}: asked for its version it answered ${answers.join("; ")}`);
}
