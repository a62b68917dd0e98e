// The store's connections to PostgreSQL lost while in use (the server restarted, an administrator
// ending backends): the call that held one fails with an error the API can answer, the process
// goes on, and the next call takes a new connection. A connection lost between two statements of
// a transaction is the case that matters: no query is running on it for the error to go to. And a
// server that takes the connection but never answers fails the call as unavailable, in time.
import { sql } from "kysely";
import { createServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code } from "../../../core/index.js";
import { openPostgresStore } from "../../../targets/cloud/storage/open-postgres-store.js";
import { eventually } from "../../helpers/eventually.js";
import { startPostgresServer, type PostgresServer } from "../../helpers/postgres-server.js";

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgresServer();
});
afterAll(async () => {
  await server?.stop();
});

describe("the store's PostgreSQL connections lost in use", () => {
  it("fail the transaction holding one, not the process, and the store serves again after a restart", async () => {
    const store = await openPostgresStore(await server.createDatabase());
    try {
      const uncaught: unknown[] = [];
      const note = (thrown: unknown) => uncaught.push(thrown);
      process.on("uncaughtException", note);
      try {
        const held = store.db.transaction().execute(async (tx) => {
          await sql`select 1`.execute(tx);
          await server.restart();
          // Let the lost connection's news arrive while no statement runs on it.
          await new Promise((resolve) => setTimeout(resolve, 200));
          await sql`select 2`.execute(tx);
        });
        await expect(held).rejects.toMatchObject({ code: Code.Unavailable, message: expect.stringMatching(/^the database: /) });
        const answer = await eventually(async () => (await sql<{ n: number }>`select 3 as n`.execute(store.db)).rows[0], "the store answering after the restart");
        expect(answer).toEqual({ n: 3 });
      } finally {
        process.off("uncaughtException", note);
      }
      expect(uncaught).toEqual([]);
    } finally {
      await store.close();
    }
  }, 60_000);

  it("fail as unavailable when the server takes the connection but never answers", async () => {
    const held: Socket[] = [];
    const silent = createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as { port: number };
    try {
      await expect(openPostgresStore(`postgres://svc@127.0.0.1:${port}/store`)).rejects.toMatchObject({ code: Code.Unavailable, message: expect.stringMatching(/^the database: .*timeout/) });
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 60_000);
});
