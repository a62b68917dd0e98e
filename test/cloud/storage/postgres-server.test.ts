// The test PostgreSQL itself: a real server from Debian's binaries, run unprivileged (as nobody when
// the tests run as root), reached at its URL, restarted on the same port with its data kept, and
// gone without a trace once stopped: no process, no folder in $TMPDIR.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { startPostgresServer } from "../../helpers/postgres-server.js";

async function query(url: string, text: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("the test PostgreSQL", () => {
  it("serves a database of its own, keeps it across a restart on the same port, and leaves nothing once stopped", async () => {
    const before = new Set(readdirSync(tmpdir()));
    const server = await startPostgresServer();
    const pid = server.pid!;
    try {
      const url = await server.createDatabase();
      expect(await query(url, "select current_user as who, version() as version")).toEqual([{ who: "svc", version: expect.stringMatching(/^PostgreSQL 15\./) }]);
      expect(await query(url, "select usesuper from pg_user where usename = current_user")).toEqual([{ usesuper: true }]);
      expect(readFileSync(`/proc/${pid}/status`, "utf8")).toMatch(process.getuid?.() === 0 ? /^Uid:\t65534\t/m : /^Uid:\t/m);
      await query(url, "create table kept (n integer); insert into kept values (7)");
      await server.restart();
      expect(server.pid).not.toBe(pid);
      expect(isRunning(pid)).toBe(false);
      expect(server.url("x")).toContain(`:${server.port}/`);
      expect(await query(url, "select n from kept")).toEqual([{ n: 7 }]);
    } finally {
      await server.stop();
    }
    expect(server.pid).toBeUndefined();
    expect(readdirSync(tmpdir()).filter((name) => !before.has(name))).toEqual([]);
    expect(existsSync(`/proc/${pid}`)).toBe(false);
  });
});
