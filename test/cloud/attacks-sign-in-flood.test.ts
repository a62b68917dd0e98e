// The sign-in limiter under a flood of failed sign-ins for random entities from many addresses (as
// one IPv6 network has): what it remembers stays bounded, and whoever it has locked out stays
// locked out through the flood. On SQLite and on a real PostgreSQL, where the failures are kept.
import { describe, expect, it } from "vitest";
import { createManualClock } from "../../core/manual-clock.js";
import { createLoginLimiter, MAX_TRACKED } from "../../targets/cloud/auth/login-limiter.js";
import { storeBackends } from "../helpers/store-backends.js";

const backends = storeBackends();
/** Addresses, and random entities guessed from each: more entities than the limiter remembers. */
const PEERS = 205;
const GUESSES = 50;

describe.each(backends)("a flood of failed sign-ins for random entities, on $name", (backend) => {
  it("keeps what the limiter remembers bounded, and keeps the locked out locked out", async () => {
    const store = await backend.open();
    const clock = createManualClock(Date.UTC(2026, 0, 1));
    const limiter = createLoginLimiter({ store, clock });
    for (let i = 0; i < 10; i++) await limiter.failed("victim-key", "2001:db8::1");
    await expect(limiter.check("victim-key", "2001:db8::2")).rejects.toThrow(/too many failed sign-in attempts/);

    for (let peer = 0; peer < PEERS; peer++) {
      for (let guess = 0; guess < GUESSES; guess++) {
        const entity = `random-${peer}-${guess}`;
        const address = `2001:db8:1::${peer.toString(16)}`;
        await limiter.check(entity, address);
        await limiter.failed(entity, address);
      }
    }
    expect(PEERS * GUESSES).toBeGreaterThan(MAX_TRACKED);
    expect(await limiter.tracked()).toBeLessThanOrEqual(MAX_TRACKED);
    await expect(limiter.check("victim-key", "2001:db8::3")).rejects.toThrow(/too many failed sign-in attempts/);
  });
});
