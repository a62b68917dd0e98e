// The sign-in limiter under a flood of failed sign-ins for random entities from many addresses (as
// one IPv6 network has): what it remembers stays bounded, and whoever it has locked out stays
// locked out through the flood.
import { describe, expect, it } from "vitest";
import { createManualClock } from "../../core/manual-clock.js";
import { createLoginLimiter, MAX_TRACKED } from "../../targets/cloud/auth/login-limiter.js";

describe("a flood of failed sign-ins for random entities", () => {
  it("keeps what the limiter remembers bounded, and keeps the locked out locked out", () => {
    const clock = createManualClock(Date.UTC(2026, 0, 1));
    const limiter = createLoginLimiter(clock);
    for (let i = 0; i < 10; i++) limiter.failed("victim-key", "2001:db8::1");
    expect(() => limiter.check("victim-key", "2001:db8::2")).toThrow(/too many failed sign-in attempts/);

    for (let peer = 0; peer < 1000; peer++) {
      for (let guess = 0; guess < 50; guess++) {
        const entity = `random-${peer}-${guess}`;
        const address = `2001:db8:1::${peer.toString(16)}`;
        limiter.check(entity, address);
        limiter.failed(entity, address);
      }
    }
    expect(limiter.tracked()).toBeLessThanOrEqual(MAX_TRACKED);
    expect(() => limiter.check("victim-key", "2001:db8::3")).toThrow(/too many failed sign-in attempts/);
  });
});
