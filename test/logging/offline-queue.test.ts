// The offline log queue for the cloud: order, bounds, level filter and peek/ack batches, in one
// process and across a real process that is killed and a queue reopened after it.
import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { LogEntry } from "../../core/index.js";
import { openOfflineLogQueue } from "../../targets/linux/logging/index.js";

const entry = (i: number, level: LogEntry["level"] = "info"): LogEntry => ({
  time: 1_700_000_000_000 + i,
  level,
  logger: "svc.agent",
  message: `entry ${i}`,
  fields: { i },
});
const numbers = (queue: ReturnType<typeof openOfflineLogQueue>, max = 1e6) =>
  queue.peek({ maxEntries: max }).entries.map((q) => q.entry.fields.i as number);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-queue-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("offline log queue", () => {
  it("keeps entries in order, hands them out in batches and forgets them once acknowledged", () => {
    const queue = openOfflineLogQueue({ dir });
    for (let i = 0; i < 10; i++) queue.write(entry(i));
    const batch = queue.peek({ maxEntries: 4 });
    expect(batch.entries.map((q) => q.entry)).toEqual([0, 1, 2, 3].map((i) => entry(i)));
    expect(numbers(queue)).toHaveLength(10);
    queue.ack(batch);
    expect(numbers(queue)).toEqual([4, 5, 6, 7, 8, 9]);
    queue.ack(queue.peek());
    expect(queue.size).toBe(0);
    expect(queue.peek().entries).toEqual([]);
    queue.close();
  });

  it("queues only entries at its level or above", () => {
    const queue = openOfflineLogQueue({ dir, minLevel: "warn" });
    queue.write(entry(0, "debug"));
    queue.write(entry(1, "info"));
    queue.write(entry(2, "warn"));
    queue.write(entry(3, "error"));
    expect(numbers(queue)).toEqual([2, 3]);
    queue.close();
  });

  it("drops the oldest entries beyond its bounds and reports how many with the next batch", () => {
    const queue = openOfflineLogQueue({ dir, maxEntries: 5 });
    for (let i = 0; i < 12; i++) queue.write(entry(i));
    const batch = queue.peek();
    expect(batch.entries.map((q) => q.entry.fields.i)).toEqual([7, 8, 9, 10, 11]);
    expect(batch.dropped).toBe(7);
    queue.write(entry(12));
    queue.ack(batch);
    // The drop that happened after the peek is still to be reported.
    expect(queue.peek()).toMatchObject({ dropped: 1, entries: [{ entry: entry(12) }] });
    queue.close();

    const bytes = openOfflineLogQueue({ dir: join(dir, "by-bytes"), maxBytes: 1_000 });
    for (let i = 0; i < 100; i++) bytes.write(entry(i));
    expect(bytes.bytes).toBeLessThanOrEqual(1_000);
    const kept = numbers(bytes);
    expect(kept[kept.length - 1]).toBe(99);
    expect(kept.length).toBeGreaterThan(5);
    expect(bytes.dropped).toBe(100 - kept.length);
    bytes.close();
  });

  it("removes files whose entries have all been sent", () => {
    const queue = openOfflineLogQueue({ dir, maxBytes: 40_000 });
    for (let i = 0; i < 2_000; i++) queue.write(entry(i));
    const segments = () => readdirSync(dir).filter((f) => f.endsWith(".jsonl")).length;
    expect(segments()).toBeGreaterThan(1);
    while (queue.size > 0) queue.ack(queue.peek({ maxEntries: 300 }));
    expect(segments()).toBeLessThanOrEqual(1);
    queue.close();
    expect(numbers(openOfflineLogQueue({ dir }))).toEqual([]);
  });

  it("skips a line torn by a crash and keeps appending after it", () => {
    const first = openOfflineLogQueue({ dir });
    first.write(entry(0));
    first.write(entry(1));
    first.close();
    const segment = readdirSync(dir).find((f) => f.endsWith(".jsonl"))!;
    appendFileSync(join(dir, segment), '{"seq":3,"time":1,"lev');
    const second = openOfflineLogQueue({ dir });
    second.write(entry(2));
    second.close();
    expect(numbers(openOfflineLogQueue({ dir }))).toEqual([0, 1, 2]);
  });
});

describe("offline log queue across a process restart", () => {
  const fixtureDir = mkdtempSync(join(tmpdir(), "svc-queue-fixture-"));
  const writer = join(fixtureDir, "queue-writer.cjs");
  beforeAll(async () => {
    await build({
      entryPoints: [join(import.meta.dirname, "fixtures", "queue-writer.ts")],
      outfile: writer,
      bundle: true,
      platform: "node",
      target: "node20",
      format: "cjs",
      logLevel: "error",
    });
  });
  afterAll(() => rmSync(fixtureDir, { recursive: true, force: true }));

  /** Runs the writer until it has printed `until` lines, kills it, and returns the numbers it printed. */
  function runAndKill(args: string[], until: (lines: string[]) => boolean): Promise<number[]> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [writer, ...args], { stdio: ["ignore", "pipe", "inherit"] });
      const lines: string[] = [];
      let buffered = "";
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk: string) => {
        buffered += chunk;
        const parts = buffered.split("\n");
        buffered = parts.pop()!;
        lines.push(...parts);
        if (until(lines) && child.exitCode === null && !child.killed) child.kill("SIGKILL");
      });
      child.on("error", reject);
      child.on("exit", () => resolve(lines.filter((l) => l !== "done").map(Number)));
    });
  }

  it("loses nothing within the bound, keeps the order and drops the oldest beyond it", async () => {
    const printed = await runAndKill([dir, "1000", "forever"], (lines) => lines.length >= 3_000);
    const queue = openOfflineLogQueue({ dir, maxEntries: 1_000 });
    const kept = numbers(queue);
    expect(kept.length).toBeLessThanOrEqual(1_000);
    // Order kept, nothing missing between the oldest kept entry and the newest, debug filtered out.
    const expected: number[] = [];
    for (let i = kept[0]!; i <= kept[kept.length - 1]!; i++) if (i % 10 !== 9) expected.push(i);
    expect(kept).toEqual(expected);
    // Everything the child had queued before it died is there, up to the bound.
    const lastPrinted = printed[printed.length - 1]!;
    expect(kept[kept.length - 1]).toBeGreaterThanOrEqual(lastPrinted - (lastPrinted % 10 === 9 ? 1 : 0));
    expect(kept.length).toBe(1_000);
    // Every queued entry is either kept or counted as dropped.
    const queued = Array.from({ length: kept[kept.length - 1]! + 1 }, (_, i) => i).filter((i) => i % 10 !== 9).length;
    expect(queue.dropped).toBe(queued - kept.length);
    queue.close();
  });

  it("keeps every entry of a queue under its bound and remembers what was acknowledged", async () => {
    const printed = await runAndKill([dir, "1000", "60", "20"], (lines) => lines.includes("done"));
    expect(printed).toHaveLength(60);
    const queue = openOfflineLogQueue({ dir, maxEntries: 1_000 });
    const queuedAfterAck = printed.filter((i) => i % 10 !== 9).slice(20);
    expect(numbers(queue)).toEqual(queuedAfterAck);
    expect(queue.dropped).toBe(0);
    // New entries continue after the old ones.
    queue.write(entry(1_000));
    expect(numbers(queue).slice(-2)).toEqual([59 - 1, 1_000]);
    queue.close();
  });
});
