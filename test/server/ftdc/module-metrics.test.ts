// Module processes as FTDC sees them, over a /proc of the test's own: a module is named by the
// socket its command line carries, its CPU is the share of one core its ticks took over the
// period, its memory VmRSS; a process that is gone is left out, and a forgotten one dropped.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cpuTicks, moduleMetrics, rssBytes } from "../../../targets/linux/server/ftdc/index.js";
import type { ModuleSockets } from "../../../targets/linux/modules/index.js";

const proc = mkdtempSync(join(tmpdir(), "svc-ftdc-proc-"));
afterAll(() => rmSync(proc, { recursive: true, force: true }));

/** A process in the fake /proc: its command line, its ticks and its resident set. */
function writeProcess(pid: number, args: string[], ticks: { user: number; system: number }, rssKb: number): void {
  const dir = join(proc, String(pid));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "cmdline"), `${args.join("\0")}\0`);
  // The name in parentheses holds a space and a parenthesis, as a process may name itself.
  const after = ["S", "1", "1", "1", "0", "-1", "4194560", "100", "0", "0", "0", String(ticks.user), String(ticks.system), "0", "0", "20", "0", "1"];
  writeFileSync(join(dir, "stat"), `${pid} (node (x) y) ${after.join(" ")}\n`);
  writeFileSync(join(dir, "status"), `Name:\tnode\nVmPeak:\t  99999 kB\nVmRSS:\t   ${rssKb} kB\nThreads:\t7\n`);
}

function fakeSockets(): ModuleSockets & { forgotten: number[] } {
  const forgotten: number[] = [];
  return {
    dir: "/run/svc",
    parent: "/run/svc/parent.sock",
    forModule: (name) => `/run/svc/${name}.sock`,
    recordGroup: (pid) => () => void forgotten.push(pid),
    remove: async () => {},
    forgotten,
  };
}

describe("module metrics", () => {
  it("names each module by its socket, with its CPU over the period and its resident set", () => {
    let now = 10_000;
    const metrics = moduleMetrics({ now: () => now, procRoot: proc });
    const sockets = metrics.watch(fakeSockets());
    const path = sockets.forModule("counter");
    writeProcess(4242, ["/usr/bin/node", "/opt/counter.mjs", path, "--log-level=info"], { user: 100, system: 20 }, 51_200);
    const forget = sockets.recordGroup(4242);
    expect(metrics.sample()).toEqual({ modules: { counter: { cpu_user_pct: 0, cpu_system_pct: 0, rss_bytes: 51_200 * 1024 } } });
    // Two seconds later: 50 more user ticks and 10 system ticks, of 200 a core could give.
    now += 2000;
    writeProcess(4242, ["/usr/bin/node", "/opt/counter.mjs", path], { user: 150, system: 30 }, 60_000);
    expect(metrics.sample()).toEqual({ modules: { counter: { cpu_user_pct: 25, cpu_system_pct: 5, rss_bytes: 60_000 * 1024 } } });
    forget();
    expect(metrics.sample()).toEqual({ modules: {} });
  });

  it("leaves out a process that is gone, and names one without a known socket by its pid", () => {
    const metrics = moduleMetrics({ now: () => 0, procRoot: proc });
    const sockets = metrics.watch(fakeSockets());
    sockets.recordGroup(999_999);
    writeProcess(5151, ["/opt/other"], { user: 1, system: 1 }, 10);
    sockets.recordGroup(5151);
    expect(metrics.sample()).toEqual({ modules: { "pid-5151": { cpu_user_pct: 0, cpu_system_pct: 0, rss_bytes: 10_240 } } });
  });

  it("reads the ticks after the last parenthesis and VmRSS in kB", () => {
    expect(cpuTicks("7 (a) b) R 1 1 1 0 -1 0 0 0 0 0 12 34 0 0")).toEqual({ user: 12, system: 34 });
    expect(cpuTicks("garbage")).toBeUndefined();
    expect(cpuTicks(undefined)).toBeUndefined();
    expect(rssBytes("VmRSS:\t  3 kB\n")).toBe(3072);
    expect(rssBytes("Name:\tkthreadd\n")).toBeUndefined();
  });
});
