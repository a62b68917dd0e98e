// No function body in the project outgrows one reading: more than 100 lines of code fails the
// suite, naming the file, the function and its length. Generated code is exempt.
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchProjects } from "../helpers/scratch-project.js";
import { FUNCTION_BODY_LIMIT, longFunctions } from "../../tools/check/function-size.mjs";

const repo = join(import.meta.dirname, "..", "..");
const project = scratchProjects("function-size", { types: [] });

const statements = (n: number, indent = "  ") => Array.from({ length: n }, (_, i) => `${indent}total += ${i};`).join("\n");
const comments = (n: number, indent = "  ") => Array.from({ length: n }, (_, i) => `${indent}// why ${i}`).join("\n");

describe("the function size check", () => {
  it("names the file, the function and its lines of code when a body is too long", () => {
    const dir = project({
      "long.ts": `export function createLong(): number {\n  let total = 0;\n${statements(FUNCTION_BODY_LIMIT)}\n  return total;\n}\n`,
      "short.ts": `export function createShort(): number {\n  let total = 0;\n${statements(10)}\n  return total;\n}\n`,
    });
    expect(longFunctions(dir)).toEqual([{ file: "long.ts", line: 1, name: "createLong", lines: FUNCTION_BODY_LIMIT + 2 }]);
  });

  it("counts closures, methods and callbacks by the name a reader would search for", () => {
    const body = `{\n  let total = 0;\n${statements(FUNCTION_BODY_LIMIT, "    ")}\n  return total;\n}`;
    const dir = project({
      "shapes.ts": [
        `export const arrow = () => ${body};`,
        `export const object = { method() ${body} };`,
        `export class Holder { run() ${body} }`,
        `declare function describe(name: string, fn: () => void): void;`,
        `describe("a group", () => ${body.replace("return total;", "")});`,
      ].join("\n"),
    });
    expect(longFunctions(dir).map((f) => f.name).sort()).toEqual(["arrow", 'describe("a group") callback', "method", "run"]);
  });

  it("does not measure a test file's describe callback, a list of cases, but measures each case", () => {
    const long = `{\n  let total = 0;\n${statements(FUNCTION_BODY_LIMIT, "    ")}\n}`;
    const dir = project({
      "cases.test.ts": [
        `declare function describe(name: string, fn: () => void): void;`,
        `declare function it(name: string, fn: () => void): void;`,
        `describe("a suite", () => {`,
        `  it("a long case", () => ${long});`,
        `  it("a short case", () => {});`,
        `});`,
      ].join("\n"),
    });
    expect(longFunctions(dir).map((f) => f.name)).toEqual(['it("a long case") callback']);
  });

  it("leaves blank lines and comments out of the count", () => {
    const dir = project({
      "explained.ts": `export function explained(): number {\n  let total = 0;\n${comments(200)}\n\n\n${statements(FUNCTION_BODY_LIMIT - 2)}\n  /* a closing\n     thought */\n  return total;\n}\n`,
    });
    expect(longFunctions(dir)).toEqual([]);
  });

  it("exempts generated code", () => {
    const long = `export function big(): number {\n  let total = 0;\n${statements(200)}\n  return total;\n}\n`;
    const dir = project({ "core/gen/big.ts": long, "core/big.ts": long });
    expect(longFunctions(dir, { exempt: ["core/gen"] }).map((f) => f.file)).toEqual(["core/big.ts"]);
  });

  it(`finds no function body over ${FUNCTION_BODY_LIMIT} lines of code in svc`, () => {
    const found = longFunctions(repo).map((f) => `${f.file}:${f.line} ${f.name}: ${f.lines} lines of code`);
    expect(found).toEqual([]);
  });
});
