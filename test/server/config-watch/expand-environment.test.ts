// `${NAME}` references in a configuration file: filled in from the environment where they stand,
// in a string (escaped, so a value never changes the document's shape) or bare where a number
// goes; an unset name or a bare value that is not a number is an error with its line, and no
// message repeats a value.
import { describe, expect, it } from "vitest";
import { expandEnvironment } from "../../../targets/linux/server/config-watch/expand-environment.js";

const env = { PORT: "8081", HOME: "/home/pi", SECRET: 'pa"ss\\word\n{"auth":1}', BLANK: "", RATIO: " -1.5e3 ", FLAG: "true" };

describe("${NAME} in a configuration file", () => {
  it("fills in a value inside a string, escaped, and bare where a number goes", () => {
    const text = '{"dir": "${HOME}/data", "port": ${PORT}, "key": "${SECRET}", "r": ${RATIO}, "on": ${FLAG}, "e": "${BLANK}"}';
    const expanded = expandEnvironment(text, env);
    expect(expanded).toEqual({ text: expect.any(String) });
    expect(JSON.parse((expanded as { text: string }).text)).toEqual({
      dir: "/home/pi/data",
      port: 8081,
      key: 'pa"ss\\word\n{"auth":1}',
      r: -1500,
      on: true,
      e: "",
    });
  });

  it("leaves every other $ alone: a lone $, $NAME, ${ without a name, a $ after an escaped quote", () => {
    const text = '{"a": "$5 and $HOME", "b": "${ not a name }", "c": "\\"${PORT}\\"", "d": "${}"}';
    const expanded = expandEnvironment(text, env) as { text: string };
    expect(JSON.parse(expanded.text)).toEqual({ a: "$5 and $HOME", b: "${ not a name }", c: '"8081"', d: "${}" });
  });

  it("refuses a name that is not set, with its line", () => {
    expect(expandEnvironment('{\n  "a": 1,\n  "port": ${MISSING_PORT}\n}', env)).toEqual({
      problem: "line 3: ${MISSING_PORT} names an environment variable that is not set",
    });
  });

  it("refuses a bare value that is not a number, true, false or null, without repeating it", () => {
    const expanded = expandEnvironment('{"port": ${SECRET}}', env) as { problem: string };
    expect(expanded.problem).toBe(
      'line 1: ${SECRET} stands outside quotes, where its value must be a number, true, false or null (write "${SECRET}" for text)',
    );
    expect(expanded.problem).not.toContain("pa");
    expect(expandEnvironment('{"port": ${BLANK}}', env)).toHaveProperty("problem");
  });

  it("hands text without references back untouched", () => {
    const text = '{"components": []}';
    expect(expandEnvironment(text, {})).toEqual({ text });
  });
});
