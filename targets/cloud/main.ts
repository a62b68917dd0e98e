// svc-cloud's entry point: reads the command line and runs one command. Errors a user can cause
// (a bad flag, a second init, an unknown location) are one line on stderr and exit status 1 (2 for
// a usage error), never a stack trace.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { errorMessage, SvcError } from "../../core/index.js";
import { backupCommand } from "./commands/backup.js";
import { initialise } from "./commands/init.js";
import { createMachineCommand } from "./commands/machine-create.js";
import { releaseAdd } from "./commands/release-add.js";
import { restoreCommand } from "./commands/restore.js";
import { DEFAULT_DATA_DIR, DEFAULT_LISTEN, isLoopback, parseCommandLine, parseListen, usage, CommandLineError, type CommandLine } from "./options.js";
import { parseIceServer, type IceServer } from "./fleet/ice-servers.js";
import { startCloudServer } from "./start-cloud-server.js";
import { checkDatabaseUrl, withoutPassword } from "./storage/database-url.js";
import { openStore } from "./storage/open-store.js";
import { readSetting } from "./storage/settings.js";
import { systemClock } from "./system-clock.js";

const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(argv: string[]): Promise<number> {
  let line: CommandLine;
  try {
    line = parseCommandLine(argv);
  } catch (thrown) {
    if (!(thrown instanceof CommandLineError)) throw thrown;
    log(`svc-cloud: ${thrown.message}\n${usage}`);
    return 2;
  }
  const dataDir = resolve(String(line.flags.data ?? DEFAULT_DATA_DIR));
  try {
    const database = line.flags.database === undefined ? undefined : checkDatabaseUrl(String(line.flags.database));
    if (line.command === "serve") return await serve(line, dataDir, database);
    if (line.command === "backup" || line.command === "restore") return await backupOrRestore(line, dataDir, database);
    const store = await openStore(dataDir, database);
    try {
      const now = systemClock.now();
      if (line.command === "init") {
        const result = await initialise(store, { email: line.flags.email as string | undefined, password: line.flags.password as string | undefined, now });
        process.stdout.write(`${JSON.stringify(result)}\n`);
      } else if (line.command === "release add") {
        if (line.positionals.length > 1) throw new CommandLineError(`release add takes one folder (got ${line.positionals.length})`);
        const result = await releaseAdd(store, { dir: line.positionals[0], channel: line.flags.channel as string | undefined, dataDir, now });
        process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      } else {
        const appAddress = (await readSetting(store.db, "public_url")) ?? `http://${DEFAULT_LISTEN}`;
        const result = await createMachineCommand(store, { name: line.flags.name as string | undefined, locationId: line.flags.location as string | undefined, appAddress, now });
        process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      }
      return 0;
    } finally {
      await store.close();
    }
  } catch (thrown) {
    if (thrown instanceof CommandLineError) {
      log(`svc-cloud: ${thrown.message}\n${usage}`);
      return 2;
    }
    if (!(thrown instanceof SvcError)) throw thrown;
    log(`svc-cloud: ${errorMessage(thrown)}`);
    return 1;
  }
}

async function backupOrRestore(line: CommandLine, dataDir: string, database: string | undefined): Promise<number> {
  if (line.positionals.length > 1) throw new CommandLineError(`${line.command} takes one FILE (got ${line.positionals.length})`);
  const file = line.positionals[0];
  const where = database === undefined ? dataDir : withoutPassword(database);
  if (line.command === "restore") {
    const { restored, kept } = await restoreCommand(dataDir, file, systemClock.now(), database);
    log(`svc-cloud: restored ${restored} into ${where}${kept === undefined ? "" : `; the store it replaced is kept as ${kept}`}`);
    return 0;
  }
  const store = await openStore(dataDir, database);
  try {
    const { file: written, bytes } = await backupCommand(store, file);
    log(`svc-cloud: backed up ${where} to ${written} (${bytes} bytes)`);
    return 0;
  } finally {
    await store.close();
  }
}

/** Each `--ice-server` given, checked: a value it cannot use is a usage error. */
function iceServersOf(values: readonly string[] | undefined): IceServer[] {
  try {
    return (values ?? []).map(parseIceServer);
  } catch (thrown) {
    if (thrown instanceof SvcError) throw new CommandLineError(thrown.message);
    throw thrown;
  }
}

async function serve(line: CommandLine, dataDir: string, database: string | undefined): Promise<number> {
  const { host, port } = parseListen(String(line.flags.listen ?? DEFAULT_LISTEN));
  const certFile = line.flags["tls-cert"] as string | undefined;
  const keyFile = line.flags["tls-key"] as string | undefined;
  if ((certFile === undefined) !== (keyFile === undefined)) throw new CommandLineError("--tls-cert and --tls-key go together");
  const tls = certFile === undefined ? undefined : { cert: readFileSync(certFile), key: readFileSync(keyFile!) };
  if (tls === undefined && !isLoopback(host) && line.flags.insecure !== true) {
    throw new CommandLineError(`--listen ${host}: machines send their keys to svc-cloud, so an address off this machine needs --tls-cert and --tls-key (or --insecure, on a network you trust)`);
  }
  const publicUrl = line.flags["public-url"] as string | undefined;
  if (publicUrl !== undefined && !/^https?:\/\/[^/\s]+\/?$/.test(publicUrl)) throw new CommandLineError(`--public-url ${publicUrl}: expected http(s)://HOST[:PORT]`);
  const iceServers = iceServersOf(line.flags["ice-server"] as string[] | undefined);
  const server = await startCloudServer({ dataDir, database, host, port, publicUrl: publicUrl?.replace(/\/$/, ""), tls, clock: systemClock, log, iceServers });
  if (database !== undefined) log(`svc-cloud: the store is the PostgreSQL database ${withoutPassword(database)}`);
  log(`svc-cloud: serving ${dataDir} on ${tls === undefined ? "http" : "https"}://${host}:${server.port} (public address ${server.context.publicUrl})`);
  await new Promise<void>((done) => {
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
  });
  await server.close();
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
