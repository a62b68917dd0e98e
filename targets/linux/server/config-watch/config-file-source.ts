// The configuration file as a source of configurations: each new text of the file is handed to
// the machine's load, and nothing else happens here. Trouble reading the file is logged and the
// machine keeps running as it is.
import type { LoggerLike } from "../../../../core/index.js";
import { watchConfigFile, type ConfigWatcher } from "./watch-config-file.js";

export interface ConfigFileSourceOptions {
  /** The text already loaded: only a different one is handed on. */
  initialText?: string;
  /** Takes a new text (the machine's load). */
  load(text: string, origin: string): Promise<unknown>;
  logger: LoggerLike;
}

export function configFileSource(file: string, options: ConfigFileSourceOptions): ConfigWatcher {
  const log = options.logger;
  return watchConfigFile(file, async (text) => {
    await options.load(text, file);
  }, {
    initialText: options.initialText,
    onProblem: (problem) => log.warn("cannot read the configuration file; the machine keeps running as it is", { file, problem: problem.kind, detail: problem.message }),
    onChangeError: (error) => log.error("applying the changed configuration failed", { file, error: String(error) }),
  });
}
