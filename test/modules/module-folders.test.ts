// The module folders' ownership with real processes: a folder whose owner lives is never swept;
// one whose owner is gone has its recorded process groups stopped (SIGKILL for a group that
// ignores SIGTERM) and is removed; and a record is only acted on when it provably names the same
// group (not a PID given out again) in a folder this user made.
import { spawn, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createModuleSockets } from "../../targets/linux/modules/index.js";
import { membersOf, readProcess, sweepModuleFolders } from "../../targets/linux/system/index.js";
import { eventually } from "../helpers/eventually.js";

const alive = (pid: number) => {
  const info = readProcess(pid);
  return info !== undefined && !info.zombie;
};

let base: string;
const children: ChildProcess[] = [];
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "svc-module-folders-"));
});
afterEach(() => {
  for (const child of children.splice(0)) {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // Stopped by the test.
    }
  }
  rmSync(base, { recursive: true, force: true });
});

/** A process group of its own, as a module is started: a shell and the sleep it waits for, both running. */
async function group(script = "sleep 100000 & wait"): Promise<number> {
  const child = spawn("sh", ["-c", script], { detached: true, stdio: "ignore" });
  children.push(child);
  const pgid = child.pid!;
  await eventually(() => {
    const leader = readProcess(pgid);
    return leader && membersOf({ pgid, startTime: leader.startTime }, undefined).length === 2 ? true : undefined;
  }, "the group's shell and sleep");
  return pgid;
}

/** A folder as a svc-server that died left it: no owner socket, one record per group. */
function deadFolder(id: string, records: Array<{ pgid: number; startTime: string }>): string {
  const dir = join(base, `svc-m-${id}`);
  mkdirSync(join(dir, "groups"), { recursive: true, mode: 0o700 });
  for (const r of records) writeFileSync(join(dir, "groups", `${r.pgid}-${r.startTime}`), "");
  return dir;
}

describe("module folders", () => {
  it("sweeps a dead owner's folder: its groups are stopped, SIGKILL for one that ignores SIGTERM", async () => {
    const polite = await group();
    const stubborn = await group('trap "" TERM; sleep 100000 & wait');
    const dir = deadFolder("0123456789ab", [polite, stubborn].map((pgid) => ({ pgid, startTime: readProcess(pgid)!.startTime })));

    const swept = await sweepModuleFolders({ base, graceMs: 300 });
    expect(swept).toEqual([{ dir, groups: expect.arrayContaining([expect.objectContaining({ pgid: polite }), expect.objectContaining({ pgid: stubborn })]) }]);
    expect(alive(polite)).toBe(false);
    expect(alive(stubborn)).toBe(false);
    expect(existsSync(dir)).toBe(false);
  });

  it("never signals a process whose PID was given out again, nor anything a folder of another user names", async () => {
    const innocent = await group();
    const { startTime } = readProcess(innocent)!;
    // The same PID, recorded when it named a process that started earlier.
    const reused = deadFolder("aaaaaaaaaaaa", [{ pgid: innocent, startTime: String(BigInt(startTime) - 1n) }]);
    // A folder planted by another user, naming the group exactly.
    const planted = deadFolder("bbbbbbbbbbbb", [{ pgid: innocent, startTime }]);
    chownSync(planted, 65534, 65534);

    const swept = await sweepModuleFolders({ base, graceMs: 300 });
    expect(swept).toEqual([{ dir: reused, groups: [] }]);
    expect(alive(innocent)).toBe(true);
    expect(existsSync(reused)).toBe(false);
    expect(existsSync(planted)).toBe(true);
  });

  it("leaves a live owner's folder and groups alone, and its owner removes the folder", async () => {
    const sockets = await createModuleSockets({ base });
    const pgid = await group();
    const forget = sockets.recordGroup(pgid);

    expect(await sweepModuleFolders({ base, graceMs: 300 })).toEqual([]);
    expect(alive(pgid)).toBe(true);
    expect(existsSync(sockets.dir)).toBe(true);

    forget();
    await sockets.remove();
    expect(existsSync(sockets.dir)).toBe(false);
    expect(existsSync(`${sockets.dir}.sock`)).toBe(false);
  });

  it("gives every module a socket of its own, whatever its name", async () => {
    const sockets = await createModuleSockets({ base });
    try {
      const names = ["parent", "svc", "groups", "a".repeat(100)];
      const paths = [sockets.parent, ...names.map((name) => sockets.forModule(name))];
      expect(new Set(paths).size).toBe(paths.length);
    } finally {
      await sockets.remove();
    }
  });
});
