// The MCU bundle is preloaded into flash, where a regular expression its modules make while they
// load is frozen: one with the g or y flag held at module level throws the first time a call sets
// its lastIndex, on a device only. The check names each such use, with its file and line; matchAll
// and split, which work on a copy, pass.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchProjects } from "../helpers/scratch-project.js";
import { heldRegExpUses } from "../../tools/check/held-regexps.mjs";

const repo = join(import.meta.dirname, "..", "..");
const project = scratchProjects("held-regexps", { types: [] });

describe("the held regular expressions check", () => {
  it("names each use of a module-level g or y expression that sets its lastIndex, and one exported", () => {
    const dir = project({
      "core/tokens.ts": [
        "const WORDS = /[a-z]+/g;",
        "const NUMBER = /[0-9]+/y;",
        "export const SHARED = /x/g;",
        "export const a = WORDS.test('abc');",
        "export const b = 'abc'.replace(WORDS, '-');",
        "export const c = NUMBER.exec('12');",
        "export const d = 'abc'.match(WORDS);",
        "export const keep = WORDS;",
      ].join("\n"),
    });
    expect(heldRegExpUses(dir).map(({ line, name, use }) => `${line} ${name} ${use}`)).toEqual([
      "3 SHARED exported",
      "4 WORDS .test",
      "5 WORDS an argument of .replace()",
      "6 NUMBER .exec",
      "7 WORDS an argument of .match()",
      "8 WORDS handed on",
    ]);
  });

  it("lets matchAll and split through, expressions made inside functions, those without g or y, and folders off the device", () => {
    const dir = project({
      "core/tokens.ts": [
        "const WORDS = /[a-z]+/g;",
        "const PLAIN = /^[a-z]+$/;",
        "export const a = [...'ab cd'.matchAll(WORDS)].length;",
        "export const b = 'a,b'.split(WORDS);",
        "export const c = PLAIN.test('abc');",
        "export function d(text: string): string { return text.replace(/[A-Z]/g, '_'); }",
      ].join("\n"),
      "targets/linux/words.ts": "const WORDS = /[a-z]+/g;\nexport const e = WORDS.test('abc');\n",
    });
    expect(heldRegExpUses(dir)).toEqual([]);
  });

  it("finds none in what the MCU bundle is made of", () => {
    expect(heldRegExpUses(repo)).toEqual([]);
  });
});
