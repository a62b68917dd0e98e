// The configuration file as a source of configurations: each new text of the file, its
// `${NAME}` references filled in from the environment, is handed to the machine's load, and
// nothing else happens here. Trouble reading the file, or a reference that cannot be filled in,
// is logged and the machine keeps running as it is.
import type { LoggerLike } from "../../../../core/index.js";
import type { Environment } from "./expand-environment.js";
import { expandFileText } from "./read-config-text.js";
import { watchConfigFile, type ConfigWatcher } from "./watch-config-file.js";

export interface ConfigFileSourceOptions {
  /** The file's text as written when it was loaded: only a different one is handed on. */
  initialWritten?: string;
  /** Takes a new text (the machine's load). */
  load(text: string, origin: string): Promise<unknown>;
  logger: LoggerLike;
  /** Where `${NAME}` references are looked up; the process's environment by default. */
  env?: Environment;
}

export function configFileSource(file: string, options: ConfigFileSourceOptions): ConfigWatcher {
  const log = options.logger;
  const env = options.env ?? process.env;
  return watchConfigFile(file, async (written) => {
    const expanded = expandFileText(file, written, env);
    if ("problem" in expanded) {
      log.error("configuration refused; the machine keeps running as it was", { file, reason: expanded.problem });
      return;
    }
    await options.load(expanded.text, file);
  }, {
    initialText: options.initialWritten,
    onProblem: (problem) => log.warn("cannot read the configuration file; the machine keeps running as it is", { file, problem: problem.kind, detail: problem.message }),
    onChangeError: (error) => log.error("applying the changed configuration failed", { file, error: String(error) }),
  });
}
