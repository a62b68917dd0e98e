import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCollectingSink, type SystemLogForwarding } from "../../../core/index.js";
import { createJournalForwarder, identifierFilter, levelOfPriority, type JournalForwarder } from "../../../targets/linux/agent/system/index.js";
import { eventually } from "../../helpers/eventually.js";

let dir: string;
let forwarder: JournalForwarder | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-journal-"));
});
afterEach(async () => {
  await forwarder?.stop();
  forwarder = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const entry = (cursor: string, identifier: string, message: string, priority = "6", extra: Record<string, unknown> = {}) =>
  JSON.stringify({ __CURSOR: cursor, __REALTIME_TIMESTAMP: "1700000000123456", PRIORITY: priority, SYSLOG_IDENTIFIER: identifier, MESSAGE: message, _PID: "42", ...extra });

// A stand-in for journalctl: records its arguments, prints batch-<n>.jsonl for its n-th run, then
// exits on the first run (so the forwarder must start it again) and stays up afterwards.
function fakeJournalctl(batches: string[][]): string[] {
  batches.forEach((lines, i) => writeFileSync(join(dir, `batch-${i + 1}.jsonl`), lines.map((l) => `${l}\n`).join("")));
  const script = join(dir, "journalctl.sh");
  writeFileSync(
    script,
    `#!/bin/sh
dir="$1"; shift
echo "$*" >> "$dir/args"
n=$(wc -l < "$dir/args" | tr -d ' ')
[ -f "$dir/batch-$n.jsonl" ] && cat "$dir/batch-$n.jsonl"
[ "$n" = 1 ] && exit 3
exec sleep 60
`,
  );
  return ["sh", script, dir, "-f", "-o", "json"];
}

const forwardAll: SystemLogForwarding = { all: true, include: [], exclude: ["cron"] };

describe("journal forwarder", () => {
  it("forwards the entries that pass the filter, with levels from PRIORITY, and restarts journalctl after its cursor", async () => {
    const sink = createCollectingSink();
    const command = fakeJournalctl([
      [entry("c1", "sshd", "Accepted publickey", "6"), entry("c2", "cron", "job ran"), "not json", entry("c3", "kernel", "oops", "2")],
      [entry("c4", "sshd", "Disconnected", "4"), entry("c5", "svc-agent", "own line", "6", { _SYSTEMD_UNIT: "svc-agent.service" }), entry("c6", "nm", "dbg", "7")],
    ]);
    forwarder = createJournalForwarder({ filter: forwardAll, sink, command, backoff: { initialMs: 10, maxMs: 20 } });
    await eventually(() => (sink.entries.length >= 4 ? true : undefined), "four forwarded entries");
    expect(sink.entries.map((e) => [e.logger, e.level, e.message])).toEqual([
      ["system.sshd", "info", "Accepted publickey"],
      ["system.kernel", "error", "oops"],
      ["system.sshd", "warn", "Disconnected"],
      ["system.nm", "debug", "dbg"],
    ]);
    expect(sink.entries[0]!.time).toBe(1700000000123);
    expect(sink.entries[0]!.fields).toEqual({ pid: "42" });
    const args = readFileSync(join(dir, "args"), "utf8").trim().split("\n");
    expect(args).toEqual(["-f -o json -n 0", "-f -o json --after-cursor=c3"]);
    expect(forwarder.forwarded).toBe(4);
  });

  it("forwards only the listed identifiers without all", async () => {
    const sink = createCollectingSink();
    const command = fakeJournalctl([[], [entry("a", "sshd", "one"), entry("b", "cron", "two"), entry("c", "kernel", "three")]]);
    forwarder = createJournalForwarder({ filter: { all: false, include: ["cron", "kernel"], exclude: [] }, sink, command, backoff: { initialMs: 10, maxMs: 20 } });
    await eventually(() => (sink.entries.length >= 2 ? true : undefined), "two forwarded entries");
    expect(sink.entries.map((e) => e.message)).toEqual(["two", "three"]);
  });

  it("stop kills journalctl by its PID", async () => {
    const command = fakeJournalctl([[], []]);
    forwarder = createJournalForwarder({ filter: forwardAll, sink: createCollectingSink(), command, backoff: { initialMs: 10, maxMs: 20 } });
    await eventually(() => (readFileSync(join(dir, "args"), "utf8").split("\n").length > 2 ? true : undefined), "the second journalctl");
    const pid = await eventually(() => forwarder!.pid, "a running journalctl");
    await forwarder.stop();
    expect(() => process.kill(pid, 0)).toThrow();
    expect(forwarder.pid).toBeUndefined();
    forwarder = undefined;
  });

  it("decodes the filter and priorities as documented", () => {
    expect(identifierFilter({ all: true, include: [], exclude: ["a"] })("a")).toBe(false);
    expect(identifierFilter({ all: true, include: [], exclude: ["a"] })("b")).toBe(true);
    expect(identifierFilter({ all: false, include: [], exclude: [] })("b")).toBe(false);
    expect(["0", "3", "4", "5", "6", "7", undefined].map(levelOfPriority)).toEqual(["error", "error", "warn", "info", "info", "debug", "info"]);
  });
});
