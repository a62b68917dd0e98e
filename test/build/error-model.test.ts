// One error model from components to the wire: one table of status codes, one error class in the
// core, one errorMessage, no two error classes of one name. The check names each second
// vocabulary it finds, with its file and line.
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchProjects } from "../helpers/scratch-project.js";
import { errorModelProblems } from "../../tools/check/error-model.mjs";

const repo = join(import.meta.dirname, "..", "..");
const project = scratchProjects("error-model");

const codeTable = "export const Code = { Canceled: 1, Unknown: 2, InvalidArgument: 3 } as const;\n";

describe("the error model check", () => {
  it("names a second table of status codes and connect's Code in a target", () => {
    const dir = project({
      "core/errors/code.ts": codeTable,
      "core/rpc/status.ts": `export const Code = {\n  InvalidArgument: 3,\n} as const;\n`,
      "targets/linux/limits.ts": `import {\n  Code,\n  ConnectError,\n} from "@connectrpc/connect";\nexport const e = new ConnectError("x", Code.Internal);\n`,
    });
    expect(errorModelProblems(dir)).toEqual([
      { file: "core/rpc/status.ts", line: 2, problem: "a second table of status codes; use Code from core/errors/code.ts" },
      { file: "targets/linux/limits.ts", line: 1, problem: "connect's Code imported; the status codes are core's Code (core/errors/code.ts)" },
    ]);
  });

  it("names an error class of the core other than SvcError", () => {
    const dir = project({
      "core/errors/svc-error.ts": "export class SvcError extends Error {}\n",
      "core/components/component-error.ts": "export class ComponentError extends Error {}\n",
      "targets/linux/cli/flags.ts": "export class UsageError extends Error {}\n",
    });
    expect(errorModelProblems(dir)).toEqual([
      { file: "core/components/component-error.ts", line: 1, problem: "class ComponentError in the core; the core raises SvcError (core/errors/svc-error.ts)" },
    ]);
  });

  it("names a message read inline or a second helper for it, but not in hal/, which cannot import the core", () => {
    const inline = "export const m = (e: unknown) => (e instanceof Error ? e.message : String(e));\n";
    const dir = project({
      "core/errors/error-message.ts": "export function errorMessage(thrown: unknown): string {\n  return String(thrown);\n}\n",
      "targets/linux/agent/release-error.ts": "\nexport function reasonOf(error: unknown): string {\n  return String(error);\n}\n",
      "targets/mcu/host.ts": inline,
      "hal/mcu/pins.ts": inline,
    });
    expect(errorModelProblems(dir)).toEqual([
      { file: "targets/linux/agent/release-error.ts", line: 2, problem: "a second reasonOf; use errorMessage (core/errors/error-message.ts)" },
      { file: "targets/mcu/host.ts", line: 1, problem: "the message of a thrown value read inline; use errorMessage (core/errors/error-message.ts)" },
    ]);
  });

  it("names the second of two error classes with one name", () => {
    const dir = project({
      "targets/linux/cli/flags.ts": "export class UsageError extends Error {}\n",
      "tools/hal-conformance/cli.ts": "\n\nexport class UsageError extends Error {}\n",
    });
    expect(errorModelProblems(dir)).toEqual([
      {
        file: "tools/hal-conformance/cli.ts",
        line: 3,
        problem: "a second class UsageError (the first is in targets/linux/cli/flags.ts); one idea, one class",
      },
    ]);
  });

  it("leaves generated code and tests alone", () => {
    const dir = project({
      "core/errors/code.ts": codeTable,
      "proto/gen/status_pb.ts": codeTable,
      "test/client.test.ts": `import { Code } from "@connectrpc/connect";\n`,
    });
    expect(errorModelProblems(dir)).toEqual([]);
  });

  it("finds one error model in svc", () => {
    expect(errorModelProblems(repo).map((p) => `${p.file}:${p.line} ${p.problem}`)).toEqual([]);
  });
});
