// svc-cloud's log figures:
// - ingest: the real svc-cloud process taking log entries through the authenticated
//   RobotService.Log (1,000 entries a call, 4 parts, 8 calls in flight over HTTP/2), with the
//   query indexes in place, while its retention sweep deletes 500,000 expired entries;
// - query: one part's newest page of one level (GetRobotPartLogs, 100 entries) over 10 million
//   entries (100 a Log call). The 10-million-entry store is built once and kept outside the
//   repository (~/.cache/svc-bench/cloud-logs-10m-chunks, or SVC_BENCH_CACHE), reused by later
//   runs; svc-cloud runs in this process on it with a clock set to when it was built, so its
//   entries never expire;
// - the web app's logs page of that part in headless Chromium, signed in: from navigating to the
//   part's page until its newest 100 entries are on screen and "Older" takes a click, and until
//   the chart of the last day's volume is drawn; the median of five loads after a first.
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { createClient } from "@connectrpc/connect";
import Database from "better-sqlite3";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { LogRequestSchema, RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { LogEntrySchema } from "../../proto/gen/common/v1/common_pb.js";
import { LOG_LEVELS } from "../../targets/cloud/api/logs-entries.js";
import { encodeChunk, summaryOf } from "../../targets/cloud/storage/log-chunk.js";
import { initialise } from "../../targets/cloud/commands/init.js";
import { LOG_RETENTION_MS } from "../../targets/cloud/fleet/log-retention.js";
import { startCloudServer } from "../../targets/cloud/start-cloud-server.js";
import { createMachine } from "../../targets/cloud/storage/fleet.js";
import { openStore, storeFile } from "../../targets/cloud/storage/open-store.js";
import { systemClock } from "../../targets/cloud/system-clock.js";
import { bearer, cloudTransport, signIn } from "../../test/helpers/cloud-client.js";
import { startCloud } from "../../test/helpers/cloud-process.js";
import { signInAt } from "../../test/helpers/cloud-browser.js";
import { chromium } from "playwright-core";
import { makeFirstOwner, needsFirstOwner } from "../../targets/cloud/storage/first-owner.js";
import { report } from "./report.js";

const DAY = 24 * 60 * 60_000;
const INGEST_MS = Number(process.env.BENCH_INGEST_MS ?? 10_000);
const EXPIRED_ROWS = 500_000;
const FIXTURE_ROWS = 10_000_000;
const FIXTURE_PARTS = 10;
const FIXTURE_PER_CALL = 100;

interface Part {
  id: string;
  key: { id: string; key: string };
}

/** A store with `parts` machines; answers the organisation key and the parts. */
async function seed(dataDir: string, parts: number, now: number) {
  const store = await openStore(dataDir);
  try {
    const init = await initialise(store, { now });
    const made: Part[] = [];
    for (let i = 0; i < parts; i++) {
      const m = await createMachine(store.db, { locationId: init.location_id, organizationId: init.organization_id, name: `bench-${i}`, editedBy: "bench", now });
      made.push({ id: m.partId, key: m.partKey });
    }
    return { init, parts: made };
  } finally {
    await store.close();
  }
}

interface FillEntry {
  part: string;
  time: number;
  level: string;
  message: string;
}

const LEVELS: readonly string[] = LOG_LEVELS;

/** Entries straight into the file, `perCall` to a chunk as Log calls would store them (the schema is svc-cloud's own, made by openStore above). */
function fillLogs(dataDir: string, count: number, perCall: number, entry: (i: number) => FillEntry, received: (time: number) => number): void {
  const db = new Database(storeFile(dataDir));
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  const insert = db.prepare("insert into log_chunks (part_id, received, first_time, last_time, levels, entries, body) values (?, ?, ?, ?, ?, ?, ?)");
  const caller = { File: "resource_manager.go", Line: 412, Defined: true };
  const chunk = db.transaction((from: number, to: number) => {
    for (let first = from; first < to; first += perCall) {
      const made = Array.from({ length: Math.min(perCall, to - first) }, (_, j) => entry(first + j));
      const entries = made.map((e) => ({
        time: e.time,
        level: LEVELS.indexOf(e.level),
        bytes: toBinary(LogEntrySchema, create(LogEntrySchema, { host: "bench", level: e.level, time: timestampFromMs(e.time), loggerName: "rdk.resource_manager", message: e.message, caller, fields: [] })),
      }));
      const s = summaryOf(entries);
      insert.run(made[0]!.part, received(s.lastTime), s.firstTime, s.lastTime, s.levels, s.entries, encodeChunk(entries));
    }
  });
  for (let from = 0; from < count; from += 100_000) chunk(from, Math.min(count, from + 100_000));
  db.close();
}

function countExpired(dataDir: string, cutoff: number): number {
  const db = new Database(storeFile(dataDir), { readonly: true });
  try {
    return (db.prepare("select coalesce(sum(entries), 0) as n from log_chunks where received < ?").get(cutoff) as { n: number }).n;
  } finally {
    db.close();
  }
}

async function ingest(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "svc-cloud-bench-"));
  try {
    const now = Date.now();
    const { init, parts } = await seed(dataDir, 4, now);
    const expiredAt = now - LOG_RETENTION_MS - DAY;
    fillLogs(dataDir, EXPIRED_ROWS, 1000, (i) => ({ part: parts[Math.floor(i / 1000) % 4]!.id, time: expiredAt + i, level: "info", message: `expired entry ${i}` }), (time) => time);
    const cloud = await startCloud({ reuse: { dataDir, init } });
    try {
      const clients = await Promise.all(
        parts.map(async (p) => ({ part: p, robot: createClient(RobotService, cloudTransport(cloud.url, "grpc", [bearer(await signIn(cloud.url, p.key.id, p.key.key))])) })),
      );
      const request = (part: Part) =>
        create(LogRequestSchema, {
          id: part.id,
          logs: Array.from({ length: 1000 }, (_, i) => ({
            host: "bench",
            level: i % 10 === 0 ? "error" : "info",
            time: timestampFromMs(Date.now()),
            loggerName: "rdk.resource_manager",
            message: `reading sensor-${i} took ${i % 97} ms`,
            caller: { File: "resource_manager.go", Line: 412, Defined: true },
            stack: "",
            fields: [{ resource: `sensor-${i}` }],
          })),
        });
      const requests = clients.map((c) => request(c.part));
      const expiredBefore = countExpired(dataDir, now - LOG_RETENTION_MS);
      let entries = 0;
      const until = performance.now() + INGEST_MS;
      const start = performance.now();
      await Promise.all(
        Array.from({ length: 8 }, async (_, lane) => {
          const client = clients[lane % clients.length]!;
          while (performance.now() < until) {
            await client.robot.log(requests[lane % clients.length]!);
            entries += 1000;
          }
        }),
      );
      const seconds = (performance.now() - start) / 1000;
      const deleted = expiredBefore - countExpired(dataDir, now - LOG_RETENTION_MS);
      report("cloud log ingest (Log RPC, 1,000 a call, retention deleting)", entries / seconds, "entries/s", ">= 50000");
      report("cloud expired entries deleted during the ingest", deleted, "entries");
    } finally {
      await cloud.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface Fixture {
  now: number;
  partId: string;
  key: { id: string; key: string };
  rows: number;
}

/** The 10-million-row store, built on first use. */
async function fixture(): Promise<{ dataDir: string; fixture: Fixture }> {
  const dataDir = join(process.env.SVC_BENCH_CACHE ?? join(homedir(), ".cache/svc-bench"), "cloud-logs-10m-chunks");
  const description = join(dataDir, "fixture.json");
  if (existsSync(description)) return { dataDir, fixture: JSON.parse(readFileSync(description, "utf8")) as Fixture };
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const started = performance.now();
  const now = Date.now();
  const { init, parts } = await seed(dataDir, FIXTURE_PARTS, now);
  const span = LOG_RETENTION_MS - DAY;
  // Spread over 29 days and ten parts, 100 entries a Log call; 3 % errors, 7 % warnings, 20 %
  // debug, the rest info.
  fillLogs(
    dataDir,
    FIXTURE_ROWS,
    FIXTURE_PER_CALL,
    (i) => {
      const bucket = (i * 7919) % 100;
      const level = bucket < 3 ? "error" : bucket < 10 ? "warn" : bucket < 30 ? "debug" : "info";
      return { part: parts[Math.floor(i / FIXTURE_PER_CALL) % FIXTURE_PARTS]!.id, time: now - span + Math.floor((i * span) / FIXTURE_ROWS), level, message: `reading sensor-${i % 1000} took ${i % 97} ms` };
    },
    (time) => time,
  );
  const built: Fixture = { now, partId: parts[0]!.id, key: init.api_key, rows: FIXTURE_ROWS };
  writeFileSync(description, JSON.stringify(built));
  report("cloud 10M-entry log fixture built (once)", (performance.now() - started) / 1000, "s");
  return { dataDir, fixture: built };
}

/** svc-cloud in this process on the fixture, its clock reading the time the fixture was built (and running on from there), so the rows are as young as they were then and the retention sweep leaves them alone. */
async function fixtureServer(dataDir: string, f: Fixture) {
  const offset = f.now - Date.now();
  const clock = { ...systemClock, now: () => Date.now() + offset };
  return startCloudServer({ dataDir, host: "localhost", port: 0, clock, log: () => {} });
}

async function query(): Promise<void> {
  const { dataDir, fixture: f } = await fixture();
  const server = await fixtureServer(dataDir, f);
  try {
    const url = `http://localhost:${server.port}`;
    const app = createClient(AppService, cloudTransport(url, "grpc", [bearer(await signIn(url, f.key.id, f.key.key))]));
    const page = () => app.getRobotPartLogs({ id: f.partId, levels: ["error"], limit: 100n });
    for (let i = 0; i < 5; i++) await page();
    const times: number[] = [];
    let got = 0;
    for (let i = 0; i < 50; i++) {
      const start = performance.now();
      got = (await page()).logs.length;
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    if (got !== 100) throw new Error(`the newest page held ${got} entries, not 100`);
    report(`cloud newest page of one part's errors over ${(f.rows / 1e6).toFixed(0)}M entries (p50)`, times[25]!, "ms", "< 50");
    report(`cloud newest page of one part's errors over ${(f.rows / 1e6).toFixed(0)}M entries (slowest of 50)`, times.at(-1)!, "ms", "< 50");
  } finally {
    await server.close();
  }
}

const PAGE_OWNER = { email: "bench@example.com", password: "correct horse battery" };
const PAGE_LOADS = 5;

async function logsPage(): Promise<void> {
  const { dataDir, fixture: f } = await fixture();
  const store = await openStore(dataDir);
  try {
    if (await needsFirstOwner(store.db)) await makeFirstOwner(store.db, { ...PAGE_OWNER, now: f.now });
  } finally {
    await store.close();
  }
  const server = await fixtureServer(dataDir, f);
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
  try {
    const url = `http://localhost:${server.port}`;
    const page = await browser.newPage();
    await signInAt(page, url, PAGE_OWNER);
    await page.locator("section[aria-label=Fleet]").waitFor();
    const logs = page.locator("section[aria-label=Logs]");
    const load = async () => {
      const began = performance.now();
      await page.goto(`${url}/#/part/${f.partId}`);
      await logs.locator("table.logs tbody tr").nth(99).waitFor();
      await logs.getByRole("button", { name: "Older" }).click({ trial: true });
      const listed = performance.now() - began;
      await logs.getByRole("group", { name: /^Log volume: [1-9]/ }).waitFor();
      return { listed, charted: performance.now() - began };
    };
    await load();
    const times: { listed: number; charted: number }[] = [];
    for (let i = 0; i < PAGE_LOADS; i++) {
      await page.goto("about:blank");
      times.push(await load());
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const millions = (f.rows / 1e6).toFixed(0);
    report(`cloud web app logs page over ${millions}M entries, load to newest 100 on screen and interactive (median of ${PAGE_LOADS})`, median(times.map((t) => t.listed)), "ms", "< 1000 ms");
    report(`cloud web app logs page over ${millions}M entries, load to the last day's volume chart (median of ${PAGE_LOADS})`, median(times.map((t) => t.charted)), "ms");
  } finally {
    await browser.close();
    await server.close();
  }
}

await ingest();
await query();
await logsPage();
