// PostgreSQL's own programs, which svc-cloud runs for what they alone do well: `pg_dump` for a
// consistent copy of a database in use, `pg_restore` to put one back. They come from Debian's
// client packages: the newest /usr/lib/postgresql/N/bin that has the program (pg_dump must be at
// least as new as the server), else whichever the PATH finds. The URL's password, if it has one, is
// handed over in the environment (PGPASSWORD), never on a command line others can read.
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Code, SvcError } from "../../../core/index.js";

export type PostgresTool = "pg_dump" | "pg_restore";

const DEBIAN_ROOT = "/usr/lib/postgresql";

/** Where `tool` is: Debian's newest, else its bare name for the PATH to find. */
export function postgresToolPath(tool: PostgresTool, root = DEBIAN_ROOT): string {
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const path = join(root, version, "bin", tool);
    if (existsSync(path)) return path;
  }
  return tool;
}

export interface ToolRun {
  /** The database the tool connects to, if any: passed as `--dbname`, its password in the environment. */
  url?: string;
}

/** Runs `tool` with `args` to its end; answers what it printed. A failure says what the tool said. */
export function runPostgresTool(tool: PostgresTool, args: readonly string[], run: ToolRun = {}): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  const fullArgs = [...args];
  if (run.url !== undefined) {
    const url = new URL(run.url);
    if (url.password !== "") env.PGPASSWORD = decodeURIComponent(url.password);
    url.password = "";
    fullArgs.push(`--dbname=${url.toString()}`);
  }
  const path = postgresToolPath(tool);
  return new Promise((resolve, reject) => {
    execFile(path, fullArgs, { env, maxBuffer: 64 * 1024 * 1024, encoding: "utf8" }, (error, stdout, stderr) => {
      if (error === null) return resolve(stdout);
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        return reject(new SvcError(Code.FailedPrecondition, `${tool} was not found (in ${DEBIAN_ROOT}/N/bin or on the PATH): install Debian's postgresql-client`, error));
      }
      reject(new SvcError(Code.Internal, `${tool} failed: ${stderr.trim() || error.message}`, error));
    });
  });
}
