// The Linux sinks with real files: -log-file rotation and its bounds, refusing a file that cannot
// be opened, the fall back to stderr when writing fails later, and the JSON and terminal layouts.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createManualClock } from "../../core/index.js";
import { createLinuxLogging, createPinoSink, formatPrettyLine, LogFileError } from "../../targets/linux/logging/index.js";

function collector(isTTY = false) {
  const lines: string[] = [];
  return { lines, isTTY, write: (text: string) => lines.push(text), json: () => lines.map((l) => JSON.parse(l)) };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-log-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("-log-file", () => {
  it("creates the directory, rotates by size and keeps a bounded number of files", () => {
    const logFile = join(dir, "var", "log", "svc.log");
    const stdout = collector();
    const logging = createLinuxLogging({ logFile, rotation: { maxBytes: 2_000, maxFiles: 3 }, stdout, clock: createManualClock(1e12) });
    const log = logging.logger.child("test");
    for (let i = 0; i < 300; i++) log.info(`line ${i}`, { i });
    logging.close();

    expect(stdout.lines).toEqual([]);
    expect(readdirSync(join(dir, "var", "log")).sort()).toEqual(["svc.log", "svc.log.1", "svc.log.2", "svc.log.3"]);
    const files = ["svc.log.3", "svc.log.2", "svc.log.1", "svc.log"].map((f) => join(dir, "var", "log", f));
    for (const file of files) expect(statSync(file).size).toBeLessThanOrEqual(2_000);
    const entries = files.flatMap((f) => readFileSync(f, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l)));
    // The newest lines, in order, none torn: the oldest rotated file is dropped first.
    const numbers = entries.map((e) => e.i);
    expect(numbers[numbers.length - 1]).toBe(299);
    expect(numbers).toEqual(numbers.map((_, k) => numbers[0] + k));
    expect(entries[0]).toMatchObject({ level: "info", logger: "svc.test", msg: `line ${numbers[0]}`, time: "2001-09-09T01:46:40.000Z" });
  });

  it("never passes the cap, even for one entry larger than the whole file: it is cut and says how large it was", () => {
    const logFile = join(dir, "svc.log");
    const logging = createLinuxLogging({ logFile, rotation: { maxBytes: 4_000, maxFiles: 2 }, stdout: collector() });
    const log = logging.logger.child("test");
    log.info("before");
    log.info("x".repeat(50_000), { é: "é".repeat(3_000) });
    log.info("after");
    logging.close();

    const files = readdirSync(dir).map((f) => join(dir, f));
    for (const file of files) expect(statSync(file).size).toBeLessThanOrEqual(4_000);
    const text = files.map((f) => readFileSync(f, "utf8")).join("");
    expect(text).toMatch(/… \(\d{5} bytes\)\n/);
    expect(text).toContain('"msg":"after"');
    // The cut is between characters: the text is still valid UTF-8.
    expect(text).not.toContain("\uFFFD");
  });

  it("appends to an existing file across restarts", () => {
    const logFile = join(dir, "svc.log");
    for (const run of [1, 2]) {
      const logging = createLinuxLogging({ logFile, stdout: collector() });
      logging.logger.info("started", { run });
      logging.close();
    }
    const runs = readFileSync(logFile, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l).run);
    expect(runs).toEqual([1, 2]);
  });

  it("is a LogFileError naming the file when the file cannot be opened, its folder made or not", () => {
    writeFileSync(join(dir, "not-a-dir"), "");
    // Under /proc, mkdir answers ENOENT for a folder that exists: refused at once, not retried.
    for (const [logFile, why] of [
      [join(dir, "not-a-dir", "svc.log"), /ENOTDIR|EEXIST/],
      ["/proc/x/y.log", /ENOENT: no such file or directory, mkdir '\/proc\/x'/],
    ] as const) {
      const stderr = collector();
      let thrown: unknown;
      try {
        createLinuxLogging({ logFile, stderr, stdout: collector() });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(LogFileError);
      expect((thrown as LogFileError).path).toBe(logFile);
      expect((thrown as LogFileError).message).toMatch(why);
      expect(stderr.lines).toEqual([]);
    }
  });

  it("falls back to stderr when the disk is full, keeping the line that failed", () => {
    const stderr = collector();
    const logging = createLinuxLogging({ logFile: "/dev/full", stderr, stdout: collector() });
    expect(logging.destination()).toBe("file");
    logging.logger.info("first line");
    logging.logger.info("second line");
    logging.close();

    expect(logging.destination()).toBe("stderr");
    const lines = stderr.json();
    expect(lines.map((l) => l.msg)).toEqual([
      "first line",
      "cannot write the log file; logging to stderr from now on",
      "second line",
    ]);
    expect(lines[1].error).toMatch(/ENOSPC/);
  });
});

describe("Linux sinks", () => {
  it("write JSON lines through pino with the entry's own time, logger and fields", () => {
    const out = collector();
    const sink = createPinoSink(out);
    sink.write({ time: 1_000, level: "warn", logger: "svc.networking", message: "wifi lost", fields: { iface: "wlan0" } });
    expect(out.lines).toEqual([
      '{"level":"warn","time":"1970-01-01T00:00:01.000Z","logger":"svc.networking","iface":"wlan0","msg":"wifi lost"}\n',
    ]);
  });

  it("write JSON to stdout when it is not a terminal and readable lines when it is", () => {
    const pipe = collector(false);
    const piped = createLinuxLogging({ stdout: pipe, clock: createManualClock(0) });
    piped.logger.info("hello", { pin: 12 });
    expect(JSON.parse(pipe.lines[0]!)).toEqual({ level: "info", time: "1970-01-01T00:00:00.000Z", logger: "svc", msg: "hello", pin: 12 });

    const terminal = collector(true);
    const shown = createLinuxLogging({ stdout: terminal, clock: createManualClock(0) });
    shown.logger.info("hello", { pin: 12 });
    expect(terminal.lines[0]).toBe('1970-01-01T00:00:00.000Z\t\u001b[36mINFO\u001b[0m\tsvc\thello\t{"pin":12}\n');
    piped.close();
    shown.close();
  });

  it("lays out a terminal line without colour and without empty fields", () => {
    expect(formatPrettyLine({ time: 0, level: "error", logger: "svc.modmanager", message: "module exited", fields: {} })).toBe(
      "1970-01-01T00:00:00.000Z\tERROR\tsvc.modmanager\tmodule exited\n",
    );
  });

  it("puts everything at debug under -debug", () => {
    const out = collector();
    const logging = createLinuxLogging({ stdout: out, debug: true, settings: { rules: [{ pattern: "svc", level: "error" }] } });
    logging.logger.debug("detail");
    expect(out.json().map((l) => l.msg)).toEqual(["detail"]);
    logging.close();
  });
});
