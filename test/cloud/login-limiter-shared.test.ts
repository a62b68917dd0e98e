// The sign-in limit is kept in the store, so replicas on one database share it: failures counted
// through one replica lock the entity (or the address) out through another, the window's end
// frees it through every one, expired failures are deleted as failures go on, and the store holds
// no email or address of those who failed. On a real PostgreSQL with two stores (two replicas,
// each its own pool), and on SQLite with two limiters on one file (two processes on one folder).
import { describe, expect, it } from "vitest";
import { createManualClock } from "../../core/manual-clock.js";
import { createLoginLimiter, SWEEP_EVERY } from "../../targets/cloud/auth/login-limiter.js";
import { storeBackends } from "../helpers/store-backends.js";

const backends = storeBackends();
const WINDOW_MS = 5 * 60_000;
const LOCKED = /too many failed sign-in attempts/;

async function twoReplicas(backend: (typeof backends)[number]) {
  const first = await backend.open();
  const second = await backend.peer(first);
  const clock = createManualClock(Date.UTC(2026, 0, 1));
  return { clock, a: { db: first.db, limiter: createLoginLimiter({ store: first, clock }) }, b: { db: second.db, limiter: createLoginLimiter({ store: second, clock }) } };
}

describe.each(backends)("the sign-in limit shared by replicas on $name", (backend) => {
  it("locks an entity out through one replica after failures counted through both", async () => {
    const { a, b } = await twoReplicas(backend);
    for (let i = 0; i < 5; i++) await a.limiter.failed("owner@example.com", "192.0.2.1");
    for (let i = 0; i < 4; i++) await b.limiter.failed("owner@example.com", "192.0.2.2");
    await a.limiter.check("owner@example.com", "192.0.2.3");
    await b.limiter.check("owner@example.com", "192.0.2.3");
    await b.limiter.failed("owner@example.com", "192.0.2.2");
    await expect(a.limiter.check("owner@example.com", "192.0.2.3")).rejects.toThrow(LOCKED);
    await expect(b.limiter.check("owner@example.com", "192.0.2.4")).rejects.toThrow(LOCKED);
    // Another entity from those addresses is not locked out by this one.
    await a.limiter.check("operator@example.com", "192.0.2.1");
  });

  it("locks an address out after a hundred failures for many entities, split between replicas", async () => {
    const { a, b } = await twoReplicas(backend);
    for (let i = 0; i < 99; i++) {
      const replica = i % 2 === 0 ? a : b;
      await replica.limiter.failed(`key-${i}`, "2001:db8::7");
    }
    await b.limiter.check("key-new", "2001:db8::7");
    await a.limiter.failed("key-99", "2001:db8::7");
    await expect(b.limiter.check("key-new", "2001:db8::7")).rejects.toThrow(LOCKED);
    await expect(a.limiter.check("key-other", "2001:db8::7")).rejects.toThrow(LOCKED);
    await a.limiter.check("key-other", "2001:db8::8");
  });

  it("frees the locked out through every replica once the window has passed, and deletes what expired", async () => {
    const { clock, a, b } = await twoReplicas(backend);
    for (let i = 0; i < 10; i++) await a.limiter.failed("guessed-key", "198.51.100.1");
    await expect(b.limiter.check("guessed-key", "198.51.100.1")).rejects.toThrow(LOCKED);
    clock.advance(WINDOW_MS);
    await b.limiter.check("guessed-key", "198.51.100.1");
    await a.limiter.check("guessed-key", "198.51.100.1");
    const expiredAt = clock.now() - WINDOW_MS;
    const expired = () => a.db.selectFrom("sign_in_failures").select("name").where("at", "<=", expiredAt).execute();
    expect(await expired()).toHaveLength(20);
    for (let i = 0; i < SWEEP_EVERY; i++) await b.limiter.failed(`later-${i}`, `198.51.100.${2 + (i % 50)}`);
    expect(await expired()).toEqual([]);
    expect(await b.limiter.tracked()).toBe(SWEEP_EVERY + 50);
  });

  it("keeps no email or address of those who failed", async () => {
    const { a } = await twoReplicas(backend);
    await a.limiter.failed("person@example.com", "203.0.113.9");
    const names = (await a.db.selectFrom("sign_in_failures").select("name").execute()).map((row) => row.name).sort();
    expect(names).toEqual([expect.stringMatching(/^entity:[0-9a-f]{64}$/), expect.stringMatching(/^peer:[0-9a-f]{64}$/)]);
  });
});
