// Says where JSON text first breaks the grammar, in the same words on every engine (the engines'
// own JSON.parse messages differ, and a configuration must read the same on Node and in XS).
// Called only after JSON.parse has failed. Iterative, so deep nesting cannot overflow the stack.

const whitespace = " \t\n\r";
const escapes = "\"\\/bfnrt";
const closing: Record<string, string> = { "{": "}", "[": "]" };

export function jsonSyntaxProblem(text: string): string {
  let i = 0;
  const open: string[] = [];
  let expect: "value" | "key" | "colon" | "next" = "value";
  const skipWhitespace = () => {
    while (i < text.length && whitespace.includes(text[i]!)) i++;
  };
  const fail = () =>
    i >= text.length ? "unexpected end of input" : `unexpected ${JSON.stringify(text[i])} at ${where(text, i)}`;

  // At a quote: moves past the string; false (pointing at the fault) when it is malformed.
  const string = (): boolean => {
    for (i++; i < text.length; i++) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        return true;
      }
      if (c < " ") return false;
      if (c !== "\\") continue;
      const next = text[i + 1] ?? "";
      if (next === "u" && /^[0-9A-Fa-f]{4}$/.test(text.slice(i + 2, i + 6))) {
        i += 5;
      } else if (next !== "" && next !== "u" && escapes.includes(next)) {
        i++;
      } else {
        i++;
        return false;
      }
    }
    return false;
  };

  // At anything else a value may start with: a number or a literal.
  const scalar = (): boolean => {
    const literal = ["true", "false", "null"].find((word) => text.startsWith(word, i));
    if (literal !== undefined) {
      i += literal.length;
      return true;
    }
    const number = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
    number.lastIndex = i;
    if (!number.test(text)) return false;
    i = number.lastIndex;
    return true;
  };

  for (;;) {
    skipWhitespace();
    const c = text[i] ?? "";
    if (expect === "value") {
      if (c === "{" || c === "[") {
        i++;
        skipWhitespace();
        if (text[i] === closing[c]) {
          i++;
          expect = "next";
        } else {
          open.push(c);
          expect = c === "{" ? "key" : "value";
        }
      } else if (c === '"' ? !string() : !scalar()) {
        return fail();
      } else {
        expect = "next";
      }
    } else if (expect === "key") {
      if (c !== '"' || !string()) return fail();
      expect = "colon";
    } else if (expect === "colon") {
      if (c !== ":") return fail();
      i++;
      expect = "value";
    } else if (open.length === 0) {
      return i < text.length ? fail() : "not valid JSON";
    } else {
      const innermost = open[open.length - 1]!;
      if (c === ",") {
        i++;
        expect = innermost === "{" ? "key" : "value";
      } else if (c === closing[innermost]) {
        i++;
        open.pop();
      } else {
        return fail();
      }
    }
  }
}

function where(text: string, index: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < index; i++) {
    if (text[i] === "\n") {
      line++;
      lineStart = i + 1;
    }
  }
  return `line ${line}, column ${index - lineStart + 1}`;
}
