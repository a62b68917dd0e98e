// The configuration's `processes`, run by a real svc-server as real child processes: a one-shot
// one runs once and its output is logged; a long-running one comes back after it is killed, and
// says so; a live edit stops the one it removes and restarts the one it changes; shutdown stops
// each with its stop signal, then SIGKILL after its stop timeout; a program that is not there is
// a clear error; what a killed svc-server left is stopped by the next one; -untrusted-env
// refuses them. Every process group these tests cause is checked gone, and every folder removed.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { readProcess } from "../../targets/linux/system/index.js";
import { eventually } from "../helpers/eventually.js";
import { logLines, type LogLine } from "../helpers/log-lines.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

/** Whether a live process (not a zombie, which has exited and only waits to be collected) is in the group `pgid`. */
function groupAlive(pgid: number): boolean {
  return readdirSync("/proc").some((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    const info = readProcess(Number(entry));
    return info !== undefined && info.pgid === pgid && !info.zombie;
  });
}

describe("processes run by svc-server", () => {
  let dir: string;
  let server: SvcServerProcess | undefined;
  const groups: number[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "svc-processes-"));
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
  });
  afterAll(() => {
    // Nothing these tests started may outlive them; a leftover is killed, and the test that left it fails.
    const left = groups.filter(groupAlive);
    for (const pgid of left) process.kill(-pgid, "SIGKILL");
    expect(left).toEqual([]);
  });

  const lines = () => logLines(server!.stdout());
  const find = (what: string, match: (line: LogLine) => boolean) => eventually(() => lines().find(match), what);
  const startedPids = (id: string) =>
    lines()
      .filter((l) => l.logger === `process.${id}` && /^process ".*" started/.test(l.msg))
      .map((l) => l.pid as number);
  const startedPid = async (id: string, after = 0) => {
    const pid = await eventually(() => startedPids(id)[after], `process ${id} started (${after + 1})`);
    groups.push(pid);
    return pid;
  };

  it("runs a one-shot process once, logs its output, and reports a failing one with its exit code and stderr", async () => {
    const file = join(dir, "made");
    server = await startSvcServer({
      processes: [
        { id: "setup", name: "sh", args: ["-c", `echo "hello from $GREETING"; echo warning-line >&2; touch '${file}'`], one_shot: true, log: true, env: { GREETING: "setup" } },
        { id: "broken", name: "sh", args: ["-c", "echo it went wrong >&2; exit 3"], one_shot: true },
      ],
    });
    await startedPid("setup");
    await eventually(() => existsSync(file) || undefined, "the file the one-shot process writes");
    const stdout = await find("its stdout line", (l) => l.logger === "process.setup" && l.msg === "hello from setup");
    expect(stdout.level).toBe("info");
    const stderr = await find("its stderr line", (l) => l.logger === "process.setup.stderr" && l.msg === "warning-line");
    expect(stderr.level).toBe("error");
    await find("its end", (l) => l.logger === "process.setup" && l.msg === 'one-shot process "setup" finished');

    const failed = await find("the failure", (l) => l.logger === "process.broken" && l.level === "error");
    expect(failed.msg).toBe('one-shot process "broken" failed: it exited with code 3: it went wrong');
    expect(failed.exit_code).toBe(3);
    // `log` is off for it: its stderr is in the failure, not in lines of its own.
    expect(lines().some((l) => l.logger === "process.broken.stderr")).toBe(false);
    groups.push(await startedPid("broken"));
    // One run each, never again.
    expect(startedPids("setup")).toHaveLength(1);
    expect(startedPids("broken")).toHaveLength(1);
  });

  it("starts a long-running process again when it is killed, logs the restart, and stops it when an edit removes it", async () => {
    const keeper = { id: "keeper", name: "sh", args: ["-c", "echo started; sleep 1000"], log: true };
    const other = { id: "other", name: "sleep", args: ["1000"] };
    server = await startSvcServer({ processes: [keeper, other] });
    const first = await startedPid("keeper");
    const otherPid = await startedPid("other");
    await find("its first line", (l) => l.logger === "process.keeper" && l.msg === "started");

    process.kill(first, "SIGKILL");
    const exited = await find("the restart", (l) => l.logger === "process.keeper" && /^process "keeper" exited/.test(l.msg));
    expect(exited.msg).toMatch(/was killed by SIGKILL; restarting in \d+ ms/);
    const second = await startedPid("keeper", 1);
    expect(second).not.toBe(first);
    // The killed run's group (its sleep) went with it.
    await eventually(() => !groupAlive(first) || undefined, "the killed run's group gone");

    server.writeConfig({ processes: [other] });
    await eventually(() => !groupAlive(second) || undefined, "the removed process's group gone");
    // The unchanged one kept running, untouched.
    expect(groupAlive(otherPid)).toBe(true);
    expect(startedPids("other")).toEqual([otherPid]);

    // A changed entry is stopped and started again as it now reads.
    server.writeConfig({ processes: [{ ...other, args: ["999"] }] });
    const changed = await startedPid("other", 1);
    expect(changed).not.toBe(otherPid);
    await eventually(() => !groupAlive(otherPid) || undefined, "the changed process's old group gone");
  });

  it("stops processes at shutdown with their stop signal, and with SIGKILL after the stop timeout when they ignore it", async () => {
    const termFile = join(dir, "term");
    const intFile = join(dir, "int");
    server = await startSvcServer({
      processes: [
        { id: "polite", name: "sh", args: ["-c", `trap 'echo TERM > "${termFile}"; exit 0' TERM; echo ready; while :; do sleep 0.1; done`], log: true },
        { id: "interrupted", name: "sh", args: ["-c", `trap 'echo INT > "${intFile}"; exit 0' INT; echo ready; while :; do sleep 0.1; done`], stop_signal: "SIGINT", log: true },
        { id: "stubborn", name: "sh", args: ["-c", "trap '' TERM; echo ready; while :; do sleep 0.1; done"], stop_timeout: "300ms", log: true },
      ],
    });
    const pids = [await startedPid("polite"), await startedPid("interrupted"), await startedPid("stubborn")];
    for (const id of ["polite", "interrupted", "stubborn"]) {
      await find(`${id} ready`, (l) => l.logger === `process.${id}` && l.msg === "ready");
    }
    const out = server.stdout;
    await server.stop();
    expect(readFileSync(termFile, "utf8").trim()).toBe("TERM");
    expect(readFileSync(intFile, "utf8").trim()).toBe("INT");
    const killed = logLines(out()).find((l) => l.logger === "process.stubborn" && l.level === "warn");
    expect(killed?.msg).toBe('process "stubborn" did not stop within 300ms of SIGTERM: killed');
    for (const pid of pids) await eventually(() => !groupAlive(pid) || undefined, `the group of ${pid} gone`);
  });

  it("says clearly when a program is not there, and keeps running the others", async () => {
    server = await startSvcServer({
      processes: [
        { id: "missing", name: "no-such-program-for-svc" },
        { id: "fine", name: "sleep", args: ["1000"] },
      ],
    });
    const error = await find("the error", (l) => l.logger === "process.missing" && l.level === "error");
    expect(error.msg).toMatch(/^process "missing" cannot start: name "no-such-program-for-svc": no such program in PATH/);
    await startedPid("fine");
  });

  it("stops what a killed svc-server left running when the next one starts", async () => {
    const shared = join(dir, "shared");
    mkdirSync(shared);
    const doomed = await startSvcServer({ processes: [{ id: "left", name: "sleep", args: ["1000"] }] }, { env: { TMPDIR: shared } });
    server = doomed;
    const pid = await startedPid("left");
    await doomed.stop("SIGKILL");
    // Nothing told it: it is still running, an orphan.
    expect(groupAlive(pid)).toBe(true);
    server = await startSvcServer({}, { env: { TMPDIR: shared } });
    await eventually(() => !groupAlive(pid) || undefined, "the orphan's group stopped by the next svc-server");
  });

  it("-untrusted-env refuses every process entry with its path and starts none", async () => {
    const file = join(dir, "made");
    server = await startSvcServer(
      { processes: [{ id: "setup", name: "touch", args: [file], one_shot: true }] },
      { args: ["-untrusted-env"] },
    );
    const refused = await find("the refusal of processes[0]", (l) => l.level === "error" && l.path === "processes[0]");
    expect(refused.msg).toBe('process "setup" starts a program (touch); -untrusted-env refuses it');
    await find("the configuration", (l) => l.msg === "configuration loaded");
    expect(existsSync(file)).toBe(false);
    expect(startedPids("setup")).toEqual([]);
  });
});
