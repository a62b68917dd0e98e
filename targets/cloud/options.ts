// svc-cloud's command line: a command (serve when none is given) and its flags. Each command takes
// only the flags it uses; an unknown flag or a missing value is an error naming it.
import { parseArgs } from "node:util";

export const DEFAULT_LISTEN = "localhost:8090";
export const DEFAULT_DATA_DIR = ".svc-cloud";

export const usage = `usage:
  svc-cloud [serve] [--data DIR] [--database URL] [--listen HOST:PORT] [--public-url URL]
                    [--tls-cert FILE --tls-key FILE] [--insecure]
                    [--ice-server URL]...
  svc-cloud init [--data DIR] [--database URL] [--email E --password P]
  svc-cloud machine create --name NAME [--location ID] [--data DIR] [--database URL]
  svc-cloud release add DIR [--channel stable|dev] [--data DIR] [--database URL]
  svc-cloud backup FILE [--data DIR] [--database URL]
  svc-cloud restore FILE [--data DIR] [--database URL]
--database postgres://USER@HOST:PORT/DATABASE keeps the state in PostgreSQL instead of the data
folder's SQLite file (the password from PGPASSWORD or ~/.pgpass rather than the URL).`;

/** Where the state is: every command takes both. */
const store = { data: { type: "string" }, database: { type: "string" } } as const;

const flagSets = {
  serve: {
    ...store,
    listen: { type: "string" },
    "public-url": { type: "string" },
    "tls-cert": { type: "string" },
    "tls-key": { type: "string" },
    insecure: { type: "boolean" },
    "ice-server": { type: "string", multiple: true },
  },
  init: { ...store, email: { type: "string" }, password: { type: "string" } },
  "machine create": { ...store, name: { type: "string" }, location: { type: "string" } },
  "release add": { ...store, channel: { type: "string" } },
  backup: { ...store },
  restore: { ...store },
} as const;

/** Commands that take one file or folder besides their flags. */
const TAKES_PATH: readonly CommandName[] = ["release add", "backup", "restore"];

export type CommandName = keyof typeof flagSets;

export interface CommandLine {
  command: CommandName;
  flags: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

export class CommandLineError extends Error {}

/** The command and its flags; CommandLineError says what is wrong. */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  const [first, second] = argv;
  let command: CommandName = "serve";
  let rest = argv;
  if (first === "machine") {
    if (second !== "create") throw new CommandLineError(`unknown command "machine ${second ?? ""}" (svc-cloud machine create --name NAME)`);
    command = "machine create";
    rest = argv.slice(2);
  } else if (first === "release") {
    if (second !== "add") throw new CommandLineError(`unknown command "release ${second ?? ""}" (svc-cloud release add DIR)`);
    command = "release add";
    rest = argv.slice(2);
  } else if (first !== undefined && !first.startsWith("-")) {
    if (!(first in flagSets)) throw new CommandLineError(`unknown command "${first}"`);
    command = first as CommandName;
    rest = argv.slice(1);
  }
  try {
    const parsed = parseArgs({ args: [...rest], options: flagSets[command], allowPositionals: TAKES_PATH.includes(command), strict: true });
    return { command, flags: parsed.values as CommandLine["flags"], positionals: parsed.positionals };
  } catch (thrown) {
    throw new CommandLineError((thrown as Error).message);
  }
}

/** "HOST:PORT" (or "[v6]:PORT"), checked. */
export function parseListen(text: string): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(text);
  const port = match === null ? NaN : Number(match[2]);
  if (match === null || port > 65535) throw new CommandLineError(`--listen ${text}: expected HOST:PORT, e.g. localhost:8090`);
  return { host: match[1]!.replace(/^\[|\]$/g, ""), port };
}

/** Whether connections to `host` can only come from this machine. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}
