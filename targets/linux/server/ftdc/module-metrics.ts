// Module processes, by module name: CPU user and system time as a share of one core over the last
// period (from /proc/<pid>/stat, in clock ticks of 1/100 s) and the resident set (VmRSS in
// /proc/<pid>/status). A module is known by the process group svc-server records for it; its
// name is the one whose socket its command line carries.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { MetricTree } from "../../../../core/index.js";
import type { ModuleSockets } from "../../modules/index.js";
import type { FtdcSource } from "./ftdc-source.js";

const TICKS_PER_SECOND = 100;

export interface ModuleMetricsOptions {
  /** Milliseconds, for the length of each period. */
  now: () => number;
  /** Default /proc. */
  procRoot?: string;
}

export interface ModuleMetrics extends FtdcSource {
  /** The same sockets, telling these metrics of each module process as it starts and ends. */
  watch(sockets: ModuleSockets): ModuleSockets;
}

interface Watched {
  name: string;
  ticks?: { user: number; system: number; at: number };
}

export function moduleMetrics(options: ModuleMetricsOptions): ModuleMetrics {
  const proc = options.procRoot ?? "/proc";
  const names = new Map<string, string>();
  const running = new Map<number, Watched>();

  const nameOf = (pid: number) => {
    const args = readText(join(proc, String(pid), "cmdline"))?.split("\0") ?? [];
    for (const arg of args) if (names.has(arg)) return names.get(arg)!;
    return `pid-${pid}`;
  };

  return {
    watch(sockets) {
      return {
        ...sockets,
        dir: sockets.dir,
        parent: sockets.parent,
        forModule(name) {
          const path = sockets.forModule(name);
          names.set(path, name);
          return path;
        },
        recordGroup(pid) {
          const forget = sockets.recordGroup(pid);
          running.set(pid, { name: nameOf(pid) });
          return () => {
            running.delete(pid);
            forget();
          };
        },
        remove: () => sockets.remove(),
      };
    },
    sample() {
      const modules: MetricTree = {};
      const at = options.now();
      for (const [pid, watched] of running) {
        const ticks = cpuTicks(readText(join(proc, String(pid), "stat")));
        const rss = rssBytes(readText(join(proc, String(pid), "status")));
        if (!ticks || rss === undefined) continue;
        const last = watched.ticks;
        const elapsedTicks = last ? Math.max(1e-3, ((at - last.at) / 1000) * TICKS_PER_SECOND) : 0;
        modules[watched.name] = {
          cpu_user_pct: last ? (100 * (ticks.user - last.user)) / elapsedTicks : 0,
          cpu_system_pct: last ? (100 * (ticks.system - last.system)) / elapsedTicks : 0,
          rss_bytes: rss,
        };
        watched.ticks = { ...ticks, at };
      }
      return { modules };
    },
  };
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** utime and stime, fields 14 and 15 of /proc/<pid>/stat; the name in parentheses may hold spaces. */
export function cpuTicks(stat: string | undefined): { user: number; system: number } | undefined {
  if (stat === undefined) return undefined;
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  return Number.isFinite(user) && Number.isFinite(system) ? { user, system } : undefined;
}

/** VmRSS of /proc/<pid>/status, in bytes. */
export function rssBytes(status: string | undefined): number | undefined {
  const match = status === undefined ? null : /^VmRSS:\s+(\d+) kB$/m.exec(status);
  return match ? Number(match[1]) * 1024 : undefined;
}
