// The replicas' channel: on PostgreSQL two replicas (two stores and two channels on one real
// database) each hear what either sends, a message far past NOTIFY's 8000 bytes (with characters of
// several bytes) arrives whole and once, one replica's messages arrive in the order it sent them,
// a piece that is not svc-cloud's is passed over, and once PostgreSQL restarts each channel
// listens again and says that it may have missed messages. The local channel of a lone SQLite svc-cloud delivers at once. The revision bus carries a fragment's
// edit to every part as notices that read back as they were written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeNotices, encodeNotices } from "../../targets/cloud/fleet/revision-bus.js";
import { createLocalChannel, type ReplicaChannel } from "../../targets/cloud/fleet/replica-channel.js";
import { openPostgresStore } from "../../targets/cloud/storage/open-postgres-store.js";
import { openPostgresChannel, parsePiece, splitBytes } from "../../targets/cloud/fleet/postgres-channel.js";
import type { Store } from "../../targets/cloud/storage/store.js";
import { systemClock } from "../../targets/cloud/system-clock.js";
import { eventually } from "../helpers/eventually.js";
import { startPostgresServer, type PostgresServer } from "../helpers/postgres-server.js";

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgresServer();
});
afterAll(async () => {
  await server?.stop();
});

async function replica(url: string, lines: string[]): Promise<{ store: Store; channel: ReplicaChannel; heard: string[]; resyncs: number[] }> {
  const store = await openPostgresStore(url);
  const channel = await openPostgresChannel({ url, db: store.db, clock: systemClock, log: (line) => lines.push(line) });
  const heard: string[] = [];
  const resyncs: number[] = [];
  channel.on("test", (body) => heard.push(body));
  channel.onResync(() => resyncs.push(resyncs.length + 1));
  return { store, channel, heard, resyncs };
}

describe("the replicas' channel", () => {
  it("hands what one replica sends, however long, to every replica once, and listens again after PostgreSQL restarts", async () => {
    const url = await server.createDatabase();
    const lines: string[] = [];
    const a = await replica(url, lines);
    const b = await replica(url, lines);
    try {
      const long = "é€🙂 offer ".repeat(4000);
      await a.channel.send("test", "short");
      await b.channel.send("test", long);
      await a.channel.send("other", "not for these listeners");
      for (const r of [a, b]) await eventually(() => (r.heard.length === 2 ? true : undefined), "both messages");
      for (const r of [a, b]) expect(r.heard).toEqual(["short", long]);
      // Sent without waiting, one after another: heard in that order.
      const burst = Array.from({ length: 40 }, (_, i) => `burst ${i}`);
      await Promise.all(burst.map((text) => a.channel.send("test", text)));
      for (const r of [a, b]) await eventually(() => (r.heard.length === 2 + burst.length ? true : undefined), "the burst");
      for (const r of [a, b]) expect(r.heard.slice(2)).toEqual(burst);

      await server.restart();
      for (const r of [a, b]) await eventually(() => (r.resyncs.length > 0 ? true : undefined), "a resync after the restart", { timeoutMs: 60_000 });
      expect(lines).toContain("svc-cloud: listening for other replicas' notices again");
      await eventually(async () => (await a.channel.send("test", "after").then(() => true, () => undefined)), "a send once PostgreSQL is back");
      for (const r of [a, b]) await eventually(() => (r.heard.at(-1) === "after" ? true : undefined), "the message sent after the restart");
    } finally {
      for (const r of [a, b]) {
        await r.channel.close();
        await r.store.close();
      }
    }
  });

  it("sends without making what the sender keeps between calls stale: a notice writes no table", async () => {
    const url = await server.createDatabase();
    const a = await replica(url, []);
    try {
      // As while the replica hears other processes' writes (fleet/foreign-writes.ts).
      a.store.hearForeignWrites!(() => 0);
      const before = a.store.versions.stamp(["api_keys", "users"]);
      await a.channel.send("test", "an edit's notice");
      expect(a.store.versions.stamp(["api_keys", "users"])).toBe(before);
    } finally {
      await a.channel.close();
      await a.store.close();
    }
  });

  it("splits on characters' boundaries and reads back only its own pieces", () => {
    const text = "a€".repeat(10);
    const pieces = splitBytes(text, 5);
    expect(pieces.join("")).toBe(text);
    for (const piece of pieces) expect(Buffer.byteLength(piece)).toBeLessThanOrEqual(5);
    expect(splitBytes("", 5)).toEqual([""]);
    expect(parsePiece("x.1 0 2 revisions\nbody")).toEqual({ id: "x.1", seq: 0, total: 2, topic: "revisions", text: "body" });
    for (const bad of ["no header", "x.1 2 2 t\nbody", "x.1 0 0 t\n", "x.1 a 2 t\n", "x.1 0 2 t extra\n"]) expect(parsePiece(bad)).toBeUndefined();
  });

  it("delivers at once in a lone svc-cloud", async () => {
    const channel = createLocalChannel();
    const heard: string[] = [];
    channel.on("t", (body) => heard.push(body));
    void channel.send("t", "now");
    expect(heard).toEqual(["now"]);
  });

  it("carries revision notices as they were written, passing over lines that are not notices", () => {
    const notices = Array.from({ length: 300 }, (_, i) => ({ partId: `part-${i}`, revision: i + 1, time: 1_700_000_000_000 + i }));
    expect(decodeNotices(encodeNotices(notices))).toEqual(notices);
    expect(decodeNotices("p 1 2\nbroken line here too\np2 x 3\n")).toEqual([{ partId: "p", revision: 1, time: 2 }]);
  });
});
