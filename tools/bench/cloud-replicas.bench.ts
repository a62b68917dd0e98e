// svc-cloud at fleet scale, one process on SQLite beside replicas on one PostgreSQL, measured one
// after another in the same run on the same machine (real svc-cloud processes, a real PostgreSQL
// 15 in a temporary folder):
// - an edit reaching every machine: simulated machines (fleet-machines.ts, BENCH_CLOUD_MACHINES),
//   each on its own HTTP/2 connection with its own part key, waiting on WatchRevisions, all using
//   one fragment; one UpdateFragment through the first replica; from the edit's start until each
//   machine holds its new Config, p50 and p99 over five edits (BENCH_CLOUD_EDITS) after a first.
//   The machines are split evenly over the replicas, each connected straight to its own, as a TCP
//   balancer places a connection; a replica hears an edit made through another by PostgreSQL's
//   LISTEN/NOTIFY. One svc-cloud on SQLite, two replicas on PostgreSQL with as many machines, and
//   three with five times as many (BENCH_CLOUD_MACHINES_LARGE), to show how the cost grows; the
//   CPU per machine told of every svc-cloud process together, and of PostgreSQL's (the heartbeats
//   of the machines' streams meanwhile included: each stream repeats its revision every 15 s, and
//   the CPU of one such period of machines only waiting is measured beside it, per machine);
// - log ingest: RobotService.Log, 1,000 entries a call, 4 parts, 8 calls in flight, for
//   BENCH_INGEST_MS (log-ingest.ts), into one svc-cloud on SQLite and into two replicas on
//   PostgreSQL with the calls spread over both (no expired entries to sweep: cloud-logs measures
//   that on SQLite);
// - one part's newest page of errors (GetRobotPartLogs, 100 entries) over 10 million entries on
//   PostgreSQL (BENCH_CLOUD_LOG_ENTRIES), written straight into 30 daily partitions
//   (postgres-log-fixture.ts), through a replica: the median of 50 after five. Beside it the same
//   query over cloud-logs' cached SQLite store of 10 million, when that is there, served in this
//   process as cloud-logs serves it (with the clock of when it was built); it is not built here.
// Everything made in $TMPDIR is removed at the end, and every process stopped by its PID.
import { createClient } from "@connectrpc/connect";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { WATCH_HEARTBEAT_MS } from "../../targets/cloud/api/device-watch-revisions.js";
import { startCloudServer } from "../../targets/cloud/start-cloud-server.js";
import { systemClock } from "../../targets/cloud/system-clock.js";
import { bearer, cloudTransport, signIn } from "../../test/helpers/cloud-client.js";
import { startPostgresServer, type PostgresServer } from "../../test/helpers/postgres-server.js";
import { createSimulatedFleet, percentile } from "./fleet-machines.js";
import { FRAGMENT_NAME, fragmentConfig, seedFleet } from "./fleet-seed.js";
import { ingestLogs, type IngestTarget } from "./log-ingest.js";
import { postgresCpuSeconds } from "./postgres-cpu.js";
import { buildPostgresLogFixture } from "./postgres-log-fixture.js";
import { startReplicaSet } from "./replica-set.js";
import { report } from "./report.js";

const MACHINES = Number(process.env.BENCH_CLOUD_MACHINES ?? 1000);
const MACHINES_LARGE = Number(process.env.BENCH_CLOUD_MACHINES_LARGE ?? 5000);
const EDITS = Number(process.env.BENCH_CLOUD_EDITS ?? 5);
const INGEST_MS = Number(process.env.BENCH_INGEST_MS ?? 10_000);
const LOG_ENTRIES = Number(process.env.BENCH_CLOUD_LOG_ENTRIES ?? 10_000_000);
const INGEST_PARTS = 4;
const IN_FLIGHT = 8;
const WARM_UP_PAGES = 5;
const PAGES = 50;

/** A configuration measured: how many svc-cloud processes, on which store. */
interface Setup {
  replicas: number;
  postgres: boolean;
}

const label = (setup: Setup) => `${setup.replicas} on ${setup.postgres ? "PostgreSQL" : "SQLite"}`;
const SQLITE: Setup = { replicas: 1, postgres: false };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** 10000000 as "10M", smaller counts whole. */
const count = (n: number) => (n >= 1e6 ? `${Number((n / 1e6).toFixed(1))}M` : n.toLocaleString("en-US"));

/** The setup's store and its replicas, its fleet seeded with `machines` machines. */
async function serve(postgres: PostgresServer, root: string, setup: Setup, machines: number) {
  const database = setup.postgres ? await postgres.createDatabase() : undefined;
  const dataDir = mkdtempSync(join(root, "seeded-"));
  const seeded = await seedFleet(dataDir, machines, database);
  const replicas = await startReplicaSet({ count: setup.replicas, database, seeded: { dataDir, init: seeded.init }, root });
  /** CPU seconds of every svc-cloud process, and of PostgreSQL's when the setup is on it. */
  const cpu = () => ({ cloud: replicas.cpuSeconds(), postgres: setup.postgres ? postgresCpuSeconds(postgres.pid!) : undefined });
  return { seeded, replicas, cpu };
}

interface EditFigures {
  setup: Setup;
  machines: number;
  goal?: string;
  p50: number;
  p99: number;
  callMs: number;
  /** CPU per machine told, µs. */
  cloudUs: number;
  postgresUs?: number;
  /** CPU per machine over one heartbeat period of waiting, µs: svc-cloud's (all replicas) and PostgreSQL's, the servers' own background included. */
  heartbeatUs: number;
  postgresHeartbeatUs?: number;
  memoryMB: number;
}

async function editFigures(postgres: PostgresServer, root: string, setup: Setup, machines: number, goal?: string): Promise<EditFigures> {
  const { seeded, replicas, cpu } = await serve(postgres, root, setup, machines);
  const fleet = createSimulatedFleet();
  try {
    const { urls } = replicas;
    await fleet.connect(seeded.parts, (i) => urls[i % urls.length]!);
    await sleep(2000);
    const memoryMB = replicas.largestResidentMB();
    // One heartbeat period of machines only waiting: each stream repeats its revision once in it.
    const waitingFrom = cpu();
    await sleep(WATCH_HEARTBEAT_MS);
    const waited = cpu();
    const through = urls[0]!;
    const app = createClient(AppService, cloudTransport(through, "grpc", [bearer(await signIn(through, seeded.init.api_key.id, seeded.init.api_key.key))]));
    let edits = 0;
    const edit = () => {
      const revision = ++edits;
      return fleet.timeEdit(`${label(setup)}, edit ${revision}`, () => app.updateFragment({ id: seeded.fragmentId, name: FRAGMENT_NAME, config: fragmentConfig(revision) }));
    };
    // The first edit after a start meets code not yet compiled for it (cloud-fleet reports it).
    await edit();
    const latencies: number[] = [];
    let callMs = 0;
    const before = cpu();
    for (let n = 0; n < EDITS; n++) {
      const done = await edit();
      latencies.push(...done.latencies);
      callMs += done.callMs;
    }
    const after = cpu();
    const perMachine = (seconds: number) => (seconds * 1e6) / (EDITS * machines);
    latencies.sort((a, b) => a - b);
    return {
      setup,
      machines,
      goal,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      callMs: callMs / EDITS,
      cloudUs: perMachine(after.cloud - before.cloud),
      postgresUs: after.postgres === undefined ? undefined : perMachine(after.postgres - before.postgres!),
      heartbeatUs: ((waited.cloud - waitingFrom.cloud) * 1e6) / machines,
      postgresHeartbeatUs: waited.postgres === undefined ? undefined : ((waited.postgres - waitingFrom.postgres!) * 1e6) / machines,
      memoryMB,
    };
  } finally {
    fleet.close();
    await replicas.stop();
  }
}

/** The edit figures, each measure's lines together so the setups read side by side. */
function reportEdits(all: readonly EditFigures[]): void {
  const line = (f: EditFigures, what: string) => `cloud replicas ${what}, ${label(f.setup)}`;
  for (const f of all) report(line(f, `edit to ${f.machines} machines p50`), f.p50, "ms");
  for (const f of all) report(line(f, `edit to ${f.machines} machines p99`), f.p99, "ms", f.goal);
  for (const f of all) report(line(f, `UpdateFragment call saving ${f.machines} parts' revisions`), f.callMs, "ms");
  for (const f of all) report(line(f, `svc-cloud CPU per machine told and served its new Config (all replicas, ${f.machines} machines)`), f.cloudUs, "us");
  for (const f of all) if (f.postgresUs !== undefined) report(line(f, `PostgreSQL CPU per machine told (${f.machines} machines)`), f.postgresUs, "us");
  const waiting = `${WATCH_HEARTBEAT_MS / 1000} s of waiting, one heartbeat each`;
  for (const f of all) report(line(f, `svc-cloud CPU per machine over ${waiting} (all replicas, ${f.machines} machines)`), f.heartbeatUs, "us");
  for (const f of all) if (f.postgresHeartbeatUs !== undefined) report(line(f, `PostgreSQL CPU per machine over ${waiting} (${f.machines} machines)`), f.postgresHeartbeatUs, "us");
  for (const f of all) report(line(f, `resident memory with ${f.machines} machines connected (largest replica)`), f.memoryMB, "MB");
}

async function edits(postgres: PostgresServer, root: string): Promise<void> {
  const goal = "p99 < 1000 ms";
  const figures: EditFigures[] = [];
  try {
    figures.push(await editFigures(postgres, root, SQLITE, MACHINES, goal));
    figures.push(await editFigures(postgres, root, { replicas: 2, postgres: true }, MACHINES, goal));
    figures.push(await editFigures(postgres, root, { replicas: 3, postgres: true }, MACHINES_LARGE));
  } finally {
    reportEdits(figures);
  }
}

interface IngestFigures {
  setup: Setup;
  perSecond: number;
  /** CPU per 1,000 entries stored, µs. */
  cloudUs: number;
  postgresUs?: number;
}

async function ingestFigures(postgres: PostgresServer, root: string, setup: Setup): Promise<IngestFigures> {
  const { seeded, replicas, cpu } = await serve(postgres, root, setup, INGEST_PARTS);
  try {
    const { urls } = replicas;
    // A token for each part on each replica; call lane k goes to replica k and part k, modulo.
    const tokens = await Promise.all(urls.map((url) => Promise.all(seeded.parts.map((part) => signIn(url, part.key.id, part.key.key)))));
    const targets: IngestTarget[] = Array.from({ length: IN_FLIGHT }, (_, lane) => ({
      url: urls[lane % urls.length]!,
      token: tokens[lane % urls.length]![lane % INGEST_PARTS]!,
      partId: seeded.parts[lane % INGEST_PARTS]!.partId,
    }));
    const before = cpu();
    const { entries, seconds } = await ingestLogs(targets, IN_FLIGHT, INGEST_MS);
    const after = cpu();
    const perThousand = (used: number) => (used * 1e6) / (entries / 1000);
    return {
      setup,
      perSecond: entries / seconds,
      cloudUs: perThousand(after.cloud - before.cloud),
      postgresUs: after.postgres === undefined ? undefined : perThousand(after.postgres - before.postgres!),
    };
  } finally {
    await replicas.stop();
  }
}

async function ingest(postgres: PostgresServer, root: string): Promise<void> {
  const figures: IngestFigures[] = [];
  try {
    figures.push(await ingestFigures(postgres, root, SQLITE));
    figures.push(await ingestFigures(postgres, root, { replicas: 2, postgres: true }));
  } finally {
    const line = (f: IngestFigures, what: string) => `cloud replicas ${what}, ${label(f.setup)}`;
    for (const f of figures) report(line(f, `log ingest (Log RPC, 1,000 a call, ${IN_FLIGHT} in flight)`), f.perSecond, "entries/s");
    for (const f of figures) report(line(f, "svc-cloud CPU per 1,000 log entries stored (all replicas)"), f.cloudUs, "us");
    for (const f of figures) if (f.postgresUs !== undefined) report(line(f, "PostgreSQL CPU per 1,000 log entries stored"), f.postgresUs, "us");
  }
}

/** The median time of one part's newest page of errors, 100 entries, through `url`, after a warm-up. */
async function newestPage(url: string, key: { id: string; key: string }, partId: string): Promise<number> {
  const app = createClient(AppService, cloudTransport(url, "grpc", [bearer(await signIn(url, key.id, key.key))]));
  const page = () => app.getRobotPartLogs({ id: partId, levels: ["error"], limit: 100n });
  for (let i = 0; i < WARM_UP_PAGES; i++) await page();
  const times: number[] = [];
  for (let i = 0; i < PAGES; i++) {
    const start = performance.now();
    const got = (await page()).logs.length;
    times.push(performance.now() - start);
    if (got !== 100) throw new Error(`the newest page held ${got} entries, not 100`);
  }
  return times.sort((a, b) => a - b)[Math.floor(PAGES / 2)]!;
}

/** cloud-logs' SQLite store of 10 million entries, when a run of cloud-logs left it: its page's median and its size. */
async function cachedSqlitePage(): Promise<{ median: number; entries: number } | undefined> {
  const dataDir = join(process.env.SVC_BENCH_CACHE ?? join(homedir(), ".cache/svc-bench"), "cloud-logs-10m-chunks");
  const description = join(dataDir, "fixture.json");
  if (!existsSync(description)) return undefined;
  const f = JSON.parse(readFileSync(description, "utf8")) as { now: number; partId: string; key: { id: string; key: string }; rows: number };
  // Its clock reads the time the store was built, so the retention sweep leaves its entries alone.
  const offset = f.now - Date.now();
  const server = await startCloudServer({ dataDir, host: "localhost", port: 0, clock: { ...systemClock, now: () => Date.now() + offset }, log: () => {} });
  try {
    return { median: await newestPage(`http://localhost:${server.port}`, f.key, f.partId), entries: f.rows };
  } finally {
    await server.close();
  }
}

async function query(postgres: PostgresServer, root: string): Promise<void> {
  const database = await postgres.createDatabase();
  const dataDir = mkdtempSync(join(root, "seeded-"));
  const began = performance.now();
  const fixture = await buildPostgresLogFixture(dataDir, database, LOG_ENTRIES, Date.now());
  report(`cloud replicas ${count(LOG_ENTRIES)} log entries written into PostgreSQL, ${fixture.partitions} daily partitions (set-up)`, (performance.now() - began) / 1000, "s");
  const replicas = await startReplicaSet({ count: 1, database, seeded: { dataDir, init: fixture.fleet.init }, root });
  let median: number;
  try {
    median = await newestPage(replicas.urls[0]!, fixture.fleet.init.api_key, fixture.fleet.parts[0]!.partId);
  } finally {
    await replicas.stop();
  }
  const line = (entries: number, where: string) => `cloud replicas newest page of one part's errors over ${count(entries)} entries (median of ${PAGES}), ${where}`;
  report(line(LOG_ENTRIES, "1 on PostgreSQL"), median, "ms", "< 50 ms");
  const sqlite = await cachedSqlitePage();
  if (sqlite !== undefined) report(line(sqlite.entries, "1 on SQLite (cloud-logs' cached store, served in this process)"), sqlite.median, "ms", "< 50 ms");
}

const root = mkdtempSync(join(tmpdir(), "svc-cloud-replicas-bench-"));
try {
  const postgres = await startPostgresServer();
  try {
    await edits(postgres, root);
    await ingest(postgres, root);
    await query(postgres, root);
  } finally {
    await postgres.stop();
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
process.exit(0);
