// The token signing key, shared by replicas: on SQLite and on a real PostgreSQL with two issuers on
// two stores (two replicas), a key past its age is rotated once however many replicas check at
// the same moment (and the first key made once when both sign at once), every replica then signs with the one new key, and the tokens each signed
// verify at the other.
import { decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import { createTokenIssuer } from "../../../targets/cloud/auth/token-issuer.js";
import type { Clock } from "../../../core/index.js";
import { storeBackends } from "../../helpers/store-backends.js";

const HOUR = 60 * 60_000;
const MONTH = 30 * 24 * HOUR;

function steppedClock(start: number): Clock & { advance(ms: number): void } {
  let now = start;
  return { now: () => now, setTimeout: () => 0, clearTimeout: () => {}, advance: (ms) => (now += ms) };
}

describe.each(storeBackends())("the signing key on $name", (backend) => {
  it("is rotated by one replica when both find it old, and both then sign with the new one", async () => {
    const store = await backend.open();
    const peer = await backend.peer(store);
    const clock = steppedClock(1_800_000_000_000);
    const issuers = [store, peer].map((s) => createTokenIssuer({ store: s, clock, lifetimeMs: HOUR, audience: "svc-cloud" }));
    const before = await Promise.all(issuers.map((issuer) => issuer.issue("someone")));
    expect(new Set(before.map((token) => decodeProtectedHeader(token).kid)).size).toBe(1);
    expect(await store.db.selectFrom("signing_keys").select("kid").execute()).toHaveLength(1);
    for (const token of before) for (const issuer of issuers) expect(await issuer.verify(token)).toBe("someone");

    clock.advance(MONTH + 1);
    const rotated = await Promise.all(issuers.map((issuer) => issuer.rotateIfOlderThan(MONTH)));
    expect(rotated.filter(Boolean)).toHaveLength(1);
    const keys = await store.db.selectFrom("signing_keys").select(["kid", "retired_at"]).execute();
    expect(keys.filter((k) => k.retired_at === null)).toHaveLength(1);

    const after = await Promise.all(issuers.map((issuer) => issuer.issue("someone")));
    const kids = new Set(after.map((token) => decodeProtectedHeader(token).kid));
    expect(kids).toEqual(new Set([keys.find((k) => k.retired_at === null)!.kid]));
    for (const token of after) for (const issuer of issuers) expect(await issuer.verify(token)).toBe("someone");
  });
});
