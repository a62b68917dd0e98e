// A real PostgreSQL for tests: Debian's postgresql-15 binaries (from /usr/lib/postgresql/15/bin,
// never a link elsewhere), a cluster made by initdb in a fresh temporary folder and served on
// 127.0.0.1 at a free port, with its socket in that folder too. PostgreSQL refuses to run as root,
// and the tests run as root: then initdb and postgres run as `nobody`, set by the spawn itself
// (uid and gid), so the PID held is the postmaster's own and a signal reaches it directly. It is
// stopped by that PID (SIGINT: a fast shutdown, which ends every session) and the folder removed,
// so nothing stays in $TMPDIR. A missing binary is an error, never a reason to skip.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort } from "./free-port.js";

export const POSTGRES_BIN = "/usr/lib/postgresql/15/bin";
const SUPERUSER = "svc";
const STARTUP_MS = 60_000;
const SHUTDOWN_MS = 30_000;

export interface PostgresServer {
  readonly port: number;
  /** The postmaster's PID while it runs. */
  readonly pid: number | undefined;
  /** The URL of `database` on this server. */
  url(database: string): string;
  /** A new, empty database; answers its URL. */
  createDatabase(): Promise<string>;
  /** Stops the server (fast) and starts it again on the same port, with the same data. */
  restart(): Promise<void>;
  /** What the server logged. */
  log(): string;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

interface RunAs {
  uid: number;
  gid: number;
}

/** `tool`'s path in Debian's postgresql-15; throws (the test fails) when it is not installed. */
export function postgresBinary(tool: string): string {
  const path = join(POSTGRES_BIN, tool);
  if (!existsSync(path)) throw new Error(`${path} is missing: install Debian's postgresql-15 (sh tools/system-deps.sh test)`);
  return path;
}

export async function startPostgresServer(): Promise<PostgresServer> {
  const postgres = postgresBinary("postgres");
  const runAs = unprivileged();
  const folder = mkdtempSync(join(tmpdir(), "svc-pg-"));
  const dataDir = join(folder, "data");
  const socketDir = join(folder, "socket");
  try {
    prepareFolder(folder, socketDir, runAs);
    initdb(dataDir, folder, runAs);
  } catch (thrown) {
    rmSync(folder, { recursive: true, force: true });
    throw thrown;
  }
  const port = await freePort();
  let child: ChildProcess | undefined;
  let logged = "";
  let databases = 0;
  const url = (database: string) => `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}`;

  async function start(): Promise<void> {
    const args = ["-D", dataDir, "-k", socketDir, "-h", "127.0.0.1", "-p", String(port), "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"];
    const started = spawn(postgres, args, { cwd: folder, stdio: ["ignore", "ignore", "pipe"], env: { PATH: "/usr/bin:/bin", LANG: "C" }, ...runAs });
    child = started;
    started.stderr!.on("data", (chunk: Buffer) => {
      logged = (logged + chunk.toString()).slice(-64 * 1024);
    });
    await acceptsConnections(url("postgres"), started, () => logged);
  }

  async function halt(): Promise<void> {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((done) => running.once("exit", () => done()));
    running.kill("SIGINT");
    const timer = setTimeout(() => running.kill("SIGKILL"), SHUTDOWN_MS);
    await exited;
    clearTimeout(timer);
  }

  try {
    await start();
  } catch (thrown) {
    await halt();
    rmSync(folder, { recursive: true, force: true });
    throw thrown;
  }
  return {
    port,
    get pid() {
      return child?.pid;
    },
    url,
    async createDatabase() {
      databases += 1;
      const name = `store_${databases}_${process.pid}`;
      await withClient(url("postgres"), (client) => client.query(`create database "${name}"`));
      return url(name);
    },
    async restart() {
      await halt();
      await start();
    },
    log: () => logged,
    async stop() {
      await halt();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Whom PostgreSQL runs as: `nobody` when the tests run as root (PostgreSQL refuses root), else the tests' own user. */
function unprivileged(): RunAs | Record<string, never> {
  if (process.getuid?.() !== 0) return {};
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("nobody:"));
  const [, , uid, gid] = line?.split(":") ?? [];
  if (uid === undefined || gid === undefined) throw new Error("no user nobody in /etc/passwd to run PostgreSQL as");
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * The folder and its socket folder, owned by the user PostgreSQL runs as. That user must be able
 * to pass through $TMPDIR to reach them: the suite's $TMPDIR is made 0700, so it gains search
 * permission (x, never read) for others.
 */
function prepareFolder(folder: string, socketDir: string, runAs: RunAs | Record<string, never>): void {
  mkdirSync(socketDir);
  if (!("uid" in runAs)) return;
  const parent = tmpdir();
  const mode = statSync(parent).mode & 0o7777;
  if ((mode & 0o001) === 0) chmodSync(parent, mode | 0o001);
  chmodSync(folder, 0o700);
  chownSync(folder, runAs.uid, runAs.gid);
  chownSync(socketDir, runAs.uid, runAs.gid);
}

function initdb(dataDir: string, folder: string, runAs: RunAs | Record<string, never>): void {
  const made = spawnSync(postgresBinary("initdb"), ["-D", dataDir, "-U", SUPERUSER, "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"], {
    cwd: folder,
    encoding: "utf8",
    env: { PATH: "/usr/bin:/bin", LANG: "C" },
    timeout: STARTUP_MS,
    ...runAs,
  });
  if (made.status !== 0) throw new Error(`initdb failed (${made.status ?? made.signal}): ${made.stderr}${made.stdout}`);
}

/** Waits until the server answers a query; throws with its log when it exits or takes too long. */
async function acceptsConnections(url: string, server: ChildProcess, log: () => string): Promise<void> {
  const giveUpAt = Date.now() + STARTUP_MS;
  let last: unknown;
  while (Date.now() < giveUpAt) {
    if (server.exitCode !== null || server.signalCode !== null) throw new Error(`postgres exited (${server.exitCode ?? server.signalCode}) before accepting connections:\n${log()}`);
    try {
      await withClient(url, (client) => client.query("select 1"));
      return;
    } catch (thrown) {
      last = thrown;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`postgres did not accept connections (last: ${String(last)}):\n${log()}`);
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => undefined);
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
