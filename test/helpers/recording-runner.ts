// A CommandRunner for tests that records each command as typed and answers from a table
// (by the command line's start), exit 0 with no output otherwise; nothing is run.
import type { CommandResult, CommandRunner } from "../../targets/linux/system/index.js";

export interface RecordingRunner {
  run: CommandRunner;
  /** Every command run, as `command arg arg`. */
  readonly commands: string[];
  /** Answer commands starting with `prefix` with `result` from now on. */
  answer(prefix: string, result: Partial<CommandResult>): void;
}

export function createRecordingRunner(): RecordingRunner {
  const commands: string[] = [];
  const answers: { prefix: string; result: CommandResult }[] = [];
  return {
    commands,
    answer(prefix, result) {
      answers.unshift({ prefix, result: { code: 0, stdout: "", stderr: "", ...result } });
    },
    async run(command, args) {
      const typed = [command, ...args].join(" ");
      commands.push(typed);
      return answers.find((a) => typed.startsWith(a.prefix))?.result ?? { code: 0, stdout: "", stderr: "" };
    },
  };
}
