// The configuration watcher on real files in a temporary directory: each way of saving gives
// exactly one change with the new text, the same bytes give none, and a missing or unreadable
// file is reported without stopping the watch.
import { copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { watchConfigFile, type ConfigWatcher, type ConfigWatchOptions, type ConfigWatchProblem } from "../../../targets/linux/server/config-watch/index.js";

let dir: string;
let file: string;
let watcher: ConfigWatcher | undefined;
let changes: string[];
let problems: ConfigWatchProblem[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-config-watch-"));
  file = join(dir, "svc.json");
  writeFileSync(file, config(1));
  changes = [];
  problems = [];
});
afterEach(() => {
  watcher?.close();
  watcher = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const config = (n: number) => `${JSON.stringify({ components: [{ name: `sensor-${n}`, api: "rdk:component:sensor", model: "fake" }] }, null, 2)}\n`;

function start(options: ConfigWatchOptions = {}): void {
  watcher = watchConfigFile(file, (text) => void changes.push(text), {
    onProblem: (problem) => problems.push(problem),
    ...options,
  });
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (condition()) return;
    await pause(20);
  }
  throw new Error(`timed out waiting for ${what}`);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// Longer than the debounce and a few event rounds: time for a stray second change to show up.
const settle = () => pause(400);

/** Starts watching and lets the first look (which learns the current content) finish. */
async function started(options: ConfigWatchOptions = {}): Promise<void> {
  start(options);
  await settle();
}

describe("watchConfigFile", () => {
  it("an in-place write gives one change with the new text", async () => {
    await started();
    writeFileSync(file, config(2));
    await waitFor(() => changes.length > 0, "the change");
    await settle();
    expect(changes).toEqual([config(2)]);
  });

  it("an atomic save (temporary file renamed over it) gives one change", async () => {
    await started();
    writeFileSync(join(dir, ".svc.json.tmp-1234"), config(2));
    renameSync(join(dir, ".svc.json.tmp-1234"), file);
    await waitFor(() => changes.length > 0, "the change");
    await settle();
    expect(changes).toEqual([config(2)]);
  });

  it("an editor's rename dance (file moved to a backup, written anew, backup removed) gives one change", async () => {
    await started();
    renameSync(file, `${file}~`);
    writeFileSync(join(dir, "4913"), "");
    unlinkSync(join(dir, "4913"));
    writeFileSync(file, config(2));
    unlinkSync(`${file}~`);
    await waitFor(() => changes.length > 0, "the change");
    await settle();
    expect(changes).toEqual([config(2)]);
  });

  it("a backup copy then an in-place write gives one change", async () => {
    await started();
    copyFileSync(file, `${file}.bak`);
    writeFileSync(file, config(2));
    await waitFor(() => changes.length > 0, "the change");
    await settle();
    expect(changes).toEqual([config(2)]);
  });

  it("a burst of writes gives one change with the last text", async () => {
    await started();
    for (let i = 2; i <= 20; i++) writeFileSync(file, config(i));
    await waitFor(() => changes.length > 0, "the change");
    await settle();
    expect(changes).toEqual([config(20)]);
  });

  it("the same bytes written again give no change, in place or by rename", async () => {
    await started();
    writeFileSync(file, config(1));
    await settle();
    writeFileSync(join(dir, "tmp"), config(1));
    renameSync(join(dir, "tmp"), file);
    await settle();
    expect(changes).toEqual([]);
    writeFileSync(file, config(3));
    await waitFor(() => changes.length > 0, "the change");
    await settle();
    expect(changes).toEqual([config(3)]);
  });

  it("a deleted file is reported as missing, and its re-creation gives the new content", async () => {
    await started();
    unlinkSync(file);
    await waitFor(() => problems.length > 0, "the problem");
    expect(problems[0]).toMatchObject({ kind: "missing", path: file, message: `${file} does not exist` });
    writeFileSync(file, config(2));
    await waitFor(() => changes.length > 0, "the change");
    await settle();
    expect(changes).toEqual([config(2)]);
    expect(problems).toHaveLength(1);
  });

  it("a file missing at the start is a change when it appears", async () => {
    unlinkSync(file);
    await started();
    expect(problems.map((p) => p.kind)).toEqual(["missing"]);
    writeFileSync(file, config(5));
    await waitFor(() => changes.length > 0, "the change");
    expect(changes).toEqual([config(5)]);
  });

  it("an unreadable path is reported once, and watching goes on", async () => {
    await started({ pollIntervalMs: 50 });
    unlinkSync(file);
    mkdirSync(file);
    await waitFor(() => problems.some((p) => p.kind === "unreadable"), "the problem");
    await settle();
    expect(problems.filter((p) => p.kind === "unreadable")).toHaveLength(1);
    expect(problems.find((p) => p.kind === "unreadable")?.message).toContain(`${file} cannot be read`);
    rmSync(file, { recursive: true });
    writeFileSync(file, config(2));
    await waitFor(() => changes.length > 0, "the change");
    expect(changes).toEqual([config(2)]);
  });

  it("judges against the text the caller applied, so a change made before watching is not lost", async () => {
    start({ initialText: config(0) });
    await waitFor(() => changes.length > 0, "the change");
    await settle();
    expect(changes).toEqual([config(1)]);
  });

  it("sees changes by polling alone when fs.watch is off", async () => {
    await started({ useFsWatch: false, pollIntervalMs: 50 });
    writeFileSync(file, config(2));
    await waitFor(() => changes.length > 0, "the change");
    writeFileSync(join(dir, "tmp"), config(3));
    renameSync(join(dir, "tmp"), file);
    await waitFor(() => changes.length > 1, "the second change");
    await settle();
    expect(changes).toEqual([config(2), config(3)]);
  });

  it("follows a file whose directory is replaced", async () => {
    const sub = join(dir, "etc");
    mkdirSync(sub);
    file = join(sub, "svc.json");
    writeFileSync(file, config(1));
    await started({ pollIntervalMs: 50 });
    rmSync(sub, { recursive: true });
    mkdirSync(sub);
    writeFileSync(file, config(2));
    await waitFor(() => changes.length > 0, "the change");
    writeFileSync(file, config(3));
    await waitFor(() => changes.length > 1, "the second change");
    expect(changes).toEqual([config(2), config(3)]);
  });

  it("reports a failing onChange and keeps watching", async () => {
    const errors: unknown[] = [];
    watcher = watchConfigFile(
      file,
      (text) => {
        changes.push(text);
        if (changes.length === 1) throw new Error("apply failed");
        return Promise.reject(new Error("apply failed again"));
      },
      { onChangeError: (error) => errors.push(error) },
    );
    await settle();
    writeFileSync(file, config(2));
    await waitFor(() => errors.length > 0, "the first error");
    writeFileSync(file, config(3));
    await waitFor(() => errors.length > 1, "the second error");
    expect(changes).toEqual([config(2), config(3)]);
    expect(errors.map((e) => (e as Error).message)).toEqual(["apply failed", "apply failed again"]);
  });

  it("tells nothing after close", async () => {
    await started({ pollIntervalMs: 50 });
    watcher!.close();
    writeFileSync(file, config(2));
    unlinkSync(file);
    await settle();
    expect(changes).toEqual([]);
    expect(problems).toEqual([]);
  });
});
