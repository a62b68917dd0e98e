// `${NAME}` in a configuration file stands for the environment variable NAME, as in Viam's own
// configuration files, which write it inside strings ("${HOME}/data") and bare where a number
// goes ("port": ${PORT}). Substitution knows where it stands in the JSON text, so a value can
// never change the document's shape: inside a string the value is written escaped (a quote in a
// password stays a character of the password), outside one it must itself be a number, true,
// false or null. A name that is not set is an error with its line, never an empty value. Only
// `${` followed by a name and `}` is a reference; any other `$` is text. The values are never
// repeated in a message: they may be secrets.

export type Environment = Readonly<Record<string, string | undefined>>;

export type Expanded = { readonly text: string } | { readonly problem: string };

const reference = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/y;
const bareScalar = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)$/;

export function expandEnvironment(text: string, env: Environment): Expanded {
  if (!text.includes("${")) return { text };
  let out = "";
  let copiedTo = 0;
  let inString = false;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") line++;
    else if (inString && c === "\\") i++;
    else if (c === '"') inString = !inString;
    else if (c === "$") {
      reference.lastIndex = i;
      const match = reference.exec(text);
      if (!match) continue;
      const name = match[1]!;
      const value = env[name];
      if (value === undefined) return { problem: `line ${line}: \${${name}} names an environment variable that is not set` };
      let written: string;
      if (inString) {
        written = JSON.stringify(value).slice(1, -1);
      } else if (bareScalar.test(value.trim())) {
        written = value.trim();
      } else {
        return {
          problem: `line ${line}: \${${name}} stands outside quotes, where its value must be a number, true, false or null (write "\${${name}}" for text)`,
        };
      }
      out += text.slice(copiedTo, i) + written;
      i += match[0].length - 1;
      copiedTo = i + 1;
    }
  }
  return { text: out + text.slice(copiedTo) };
}
