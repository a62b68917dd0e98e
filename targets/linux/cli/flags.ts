// A small command-line parser in the style of Go's flag package, which the contract's options
// follow: `-name`, `--name`, `-name=value`, `-name value`; boolean options take no separate
// value (`-debug`, `-debug=false`). Short aliases (`-c`) and environment variables are declared
// beside each option, so help text, parsing and defaults come from one table.

export type FlagKind = "bool" | "string";

export interface FlagSpec {
  name: string;
  kind: FlagKind;
  help: string;
  /** Shown in help after the name, e.g. "<filename>". */
  arg?: string;
  aliases?: string[];
  /** Environment variable that sets the option when the command line does not. */
  env?: string;
  default?: boolean | string;
}

export type FlagValues = Record<string, boolean | string | undefined>;

export interface ParsedFlags {
  values: FlagValues;
  /** Options given explicitly (command line or environment), by name. */
  given: Set<string>;
  positional: string[];
}

/** A mistake on the command line; the message says which option and why. */
export class UsageError extends Error {
  override name = "UsageError";
}

const truthy = new Set(["1", "true", "t", "yes", "on"]);
const falsy = new Set(["0", "false", "f", "no", "off", ""]);

function parseBool(text: string, where: string): boolean {
  const t = text.toLowerCase();
  if (truthy.has(t)) return true;
  if (falsy.has(t)) return false;
  throw new UsageError(`invalid boolean value ${JSON.stringify(text)} for ${where}`);
}

export function parseFlags(
  specs: readonly FlagSpec[],
  argv: readonly string[],
  env: Record<string, string | undefined> = {},
): ParsedFlags {
  const byName = new Map<string, FlagSpec>();
  for (const spec of specs) {
    byName.set(spec.name, spec);
    for (const alias of spec.aliases ?? []) byName.set(alias, spec);
  }
  const values: FlagValues = {};
  const given = new Set<string>();
  const positional: string[] = [];

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positional.push(arg);
      continue;
    }
    const body = arg.replace(/^--?/, "");
    const eq = body.indexOf("=");
    const name = eq < 0 ? body : body.slice(0, eq);
    const spec = byName.get(name);
    if (!spec) throw new UsageError(`flag provided but not defined: ${arg.split("=")[0]}`);
    if (spec.kind === "bool") {
      values[spec.name] = eq < 0 ? true : parseBool(body.slice(eq + 1), `-${name}`);
    } else if (eq >= 0) {
      values[spec.name] = body.slice(eq + 1);
    } else {
      const next = argv[i + 1];
      if (next === undefined) throw new UsageError(`flag needs an argument: -${name}`);
      values[spec.name] = next;
      i++;
    }
    given.add(spec.name);
  }

  for (const spec of specs) {
    if (given.has(spec.name)) continue;
    const fromEnv = spec.env ? env[spec.env] : undefined;
    if (fromEnv !== undefined && fromEnv !== "") {
      values[spec.name] = spec.kind === "bool" ? parseBool(fromEnv, spec.env!) : fromEnv;
      given.add(spec.name);
    } else {
      values[spec.name] = spec.default ?? (spec.kind === "bool" ? false : undefined);
    }
  }
  return { values, given, positional };
}

/**
 * One line an option, aligned, with aliases, argument, environment variable and default.
 * `go` style shows every option with one dash (`-config`), `gnu` style `-c, --config`.
 */
export function formatHelp(usage: string, specs: readonly FlagSpec[], style: "go" | "gnu" = "go"): string {
  const dash = (n: string) => (style === "go" || n.length === 1 ? `-${n}` : `--${n}`);
  const left = (s: FlagSpec) => {
    const names = [...(s.aliases ?? []), s.name].map(dash);
    return `  ${names.join(", ")}${s.arg ? ` ${s.arg}` : ""}`;
  };
  const width = Math.max(...specs.map((s) => left(s).length)) + 2;
  const lines = specs.map((s) => {
    const extras = [
      s.env ? `env ${s.env}` : "",
      s.default !== undefined && s.default !== false ? `default ${JSON.stringify(s.default)}` : "",
    ].filter(Boolean);
    return `${left(s).padEnd(width)}${s.help}${extras.length ? ` (${extras.join("; ")})` : ""}`;
  });
  return `${usage}\n\nOptions:\n${lines.join("\n")}\n`;
}

/**
 * Parses a program's command line the way both svc programs want it: a mistake prints the
 * message and the usage on stderr and exits 2; `-help` prints the usage and exits 0.
 */
export function parseCommandLineOrExit(
  program: string,
  specs: readonly FlagSpec[],
  usage: string,
  style: "go" | "gnu",
  argv: readonly string[] = process.argv.slice(2),
  env: Record<string, string | undefined> = process.env,
): ParsedFlags {
  let flags: ParsedFlags;
  try {
    flags = parseFlags(specs, argv, env);
    if (flags.positional.length > 0) throw new UsageError(`unexpected argument: ${flags.positional[0]}`);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`${program}: ${e.message}\n\n${formatHelp(usage, specs, style)}`);
    process.exit(2);
  }
  if (flags.values.help) {
    process.stdout.write(formatHelp(usage, specs, style));
    process.exit(0);
  }
  return flags;
}
