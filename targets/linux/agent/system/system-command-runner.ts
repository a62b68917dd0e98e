// The one place that decides whether the agent runs system commands (systemctl, apt-get,
// dpkg-query, reboot), for --install and for the running agent alike. On a device (root "/") they
// run. Under a root prefix (tests, a staged image) the files are the prefix's, but these commands
// would act on the machine the agent happens to run on: none runs. Each is handed to `notRun`, so
// the log says what would have run, and answers as a command that succeeded without output, so
// the steps around it go on as they would on the device.
import { resolve } from "node:path";
import { createCommandRunner, type CommandRunner } from "../../system/index.js";

export interface SystemCommandRunnerOptions {
  /** The agent's root prefix. */
  root: string;
  /** Told each command not run under a root prefix, as typed. */
  notRun(typed: string): void;
  /** What runs the commands on a device. Default: the real runner. */
  run?: CommandRunner;
}

export function createSystemCommandRunner(options: SystemCommandRunnerOptions): CommandRunner {
  if (resolve(options.root) === "/") return options.run ?? createCommandRunner();
  return async (command, args) => {
    options.notRun([command, ...args].join(" "));
    return { code: 0, stdout: "", stderr: "" };
  };
}

/** The log line for a command not run under `root`. */
export function notRunMessage(root: string, typed: string): string {
  return `not run under the root prefix ${root}: ${typed}`;
}
