// People at the store level, on SQLite and PostgreSQL alike: members and roles (an organisation
// keeps an owner, also when two owners are demoted at once), people added once per email, the
// first owner made once however many ask at once, invitations accepted once and only while live,
// browser sessions that end when idle, signed out or too old, and the secrets behind them.
import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { Code, SvcError } from "../../../core/index.js";
import { makeFirstOwner, needsFirstOwner } from "../../../targets/cloud/storage/first-owner.js";
import { addMember, createUser } from "../../../targets/cloud/storage/fleet.js";
import { acceptInvitation, createInvitation, INVITATION_LIFETIME_MS, pendingInvitations } from "../../../targets/cloud/storage/invitations-store.js";
import { addUser, findMember, listMembers, setRole } from "../../../targets/cloud/storage/people-store.js";
import { roleAllows } from "../../../targets/cloud/storage/roles.js";
import { hashKey, hashPassword, keyMatches, newKeySecret, passwordMatches } from "../../../targets/cloud/storage/secrets.js";
import type { Tables } from "../../../targets/cloud/storage/tables.js";
import { endWebSession, removeEndedWebSessions, startWebSession, WEB_SESSION_IDLE_MS, WEB_SESSION_MAX_MS, webSessionUser } from "../../../targets/cloud/storage/web-sessions.js";
import { SEED_TIME, seedOrganization } from "../../helpers/store-seed.js";
import { storeBackends } from "../../helpers/store-backends.js";

const backends = storeBackends();
const codeOf = (promise: Promise<unknown>) => promise.then(() => "ok", (thrown: unknown) => (thrown instanceof SvcError ? thrown.code : String(thrown)));
// A cheap stand-in for scrypt where the hash itself is not what a test is about.
const plainHash = (password: string) => `plain$${password}`;

async function person(db: Kysely<Tables>, organizationId: string, email: string, role: "owner" | "operator" | "viewer", at = SEED_TIME) {
  const userId = await createUser(db, { email, passwordHash: plainHash("x"), now: at });
  await addMember(db, { organizationId, userId, role, now: at });
  return userId;
}

describe.each(backends)("people on $name", (backend) => {
  it("lists members in the order they joined, with roles changed and the last owner kept", async () => {
    const store = await backend.open();
    const org = await seedOrganization(store.db);
    const owner = await person(store.db, org.organizationId, "owner@example.com", "owner");
    const ops = await person(store.db, org.organizationId, "ops@example.com", "operator", SEED_TIME + 1);
    expect(await listMembers(store.db, org.organizationId)).toEqual([
      { userId: owner, email: "owner@example.com", role: "owner", joinedAt: SEED_TIME },
      { userId: ops, email: "ops@example.com", role: "operator", joinedAt: SEED_TIME + 1 },
    ]);
    expect(await codeOf(setRole(store.db, { organizationId: org.organizationId, userId: owner, role: "viewer" }))).toBe(Code.FailedPrecondition);
    await setRole(store.db, { organizationId: org.organizationId, userId: ops, role: "owner" });
    await setRole(store.db, { organizationId: org.organizationId, userId: owner, role: "viewer" });
    expect((await findMember(store.db, org.organizationId, owner))?.role).toBe("viewer");
    expect(await codeOf(setRole(store.db, { organizationId: org.organizationId, userId: "nobody", role: "viewer" }))).toBe(Code.NotFound);
  });

  it("keeps an owner when two owners are demoted at once", async () => {
    const store = await backend.open();
    const peer = await backend.peer(store);
    const org = await seedOrganization(store.db);
    const a = await person(store.db, org.organizationId, "a@example.com", "owner");
    const b = await person(store.db, org.organizationId, "b@example.com", "owner");
    const results = await Promise.all([codeOf(setRole(store.db, { organizationId: org.organizationId, userId: a, role: "viewer" })), codeOf(setRole(peer.db, { organizationId: org.organizationId, userId: b, role: "viewer" }))]);
    expect(results.sort()).toEqual([Code.FailedPrecondition, "ok"].sort());
    expect((await listMembers(store.db, org.organizationId)).filter((m) => m.role === "owner")).toHaveLength(1);
  });

  it("adds a person once per email, also when two add the same email at once", async () => {
    const store = await backend.open();
    const peer = await backend.peer(store);
    const org = await seedOrganization(store.db);
    const add = (db: Kysely<Tables>) => codeOf(addUser(db, { organizationId: org.organizationId, email: "new@example.com", passwordHash: plainHash("p"), role: "viewer", now: SEED_TIME }));
    const results = await Promise.all([add(store.db), add(peer.db), add(store.db), add(peer.db)]);
    expect(results.filter((r) => r === "ok")).toHaveLength(1);
    expect(results.filter((r) => r === Code.AlreadyExists)).toHaveLength(3);
    expect((await listMembers(store.db, org.organizationId)).map((m) => m.email)).toEqual(["new@example.com"]);
  });

  it("makes the first owner once, in a new organisation when there is none", async () => {
    const store = await backend.open();
    const peer = await backend.peer(store);
    expect(await needsFirstOwner(store.db)).toBe(true);
    const results = await Promise.all(["a", "b", "c", "d"].map((n, i) => codeOf(makeFirstOwner((i % 2 === 0 ? store : peer).db, { email: `${n}@example.com`, password: "long enough", now: SEED_TIME }))));
    expect(results.filter((r) => r === "ok")).toHaveLength(1);
    expect(results.filter((r) => r === Code.FailedPrecondition)).toHaveLength(3);
    expect(await needsFirstOwner(store.db)).toBe(false);
    const organizations = await store.db.selectFrom("organizations").select(["id", "name"]).execute();
    expect(organizations.map((o) => o.name)).toEqual(["svc"]);
    expect(await store.db.selectFrom("locations").select("name").execute()).toEqual([{ name: "main" }]);
    expect((await listMembers(store.db, organizations[0]!.id)).map((m) => m.role)).toEqual(["owner"]);
  });

  it("accepts an invitation once, while it is live, and only its newest token", async () => {
    const store = await backend.open();
    const peer = await backend.peer(store);
    const org = await seedOrganization(store.db);
    const invite = () => createInvitation(store.db, { organizationId: org.organizationId, email: "guest@example.com", role: "operator", createdBy: "owner@example.com", now: SEED_TIME });
    const old = await invite();
    const fresh = await invite();
    expect((await pendingInvitations(store.db, org.organizationId, SEED_TIME)).map((i) => i.id)).toEqual([fresh.invitation.id]);
    const accept = (db: Kysely<Tables>, token: string, now = SEED_TIME + 1) => acceptInvitation(db, { token, password: "long enough", hashPassword: plainHash, minPasswordLength: 8, now });
    expect(await codeOf(accept(store.db, old.token))).toBe(Code.Unauthenticated);
    expect(await codeOf(accept(store.db, fresh.token, SEED_TIME + INVITATION_LIFETIME_MS))).toBe(Code.Unauthenticated);
    const results = await Promise.all([store, peer, store, peer].map((s) => codeOf(accept(s.db, fresh.token))));
    expect(results.filter((r) => r === "ok")).toHaveLength(1);
    expect(results.filter((r) => r === Code.Unauthenticated)).toHaveLength(3);
    expect((await listMembers(store.db, org.organizationId)).map((m) => [m.email, m.role, m.joinedAt])).toEqual([["guest@example.com", "operator", SEED_TIME + 1]]);
    expect(await pendingInvitations(store.db, org.organizationId, SEED_TIME + 2)).toEqual([]);
  });

  it("lets an existing person join by invitation, keeping a higher role held", async () => {
    const store = await backend.open();
    const org = await seedOrganization(store.db);
    const owner = await person(store.db, org.organizationId, "boss@example.com", "owner");
    const { token } = await createInvitation(store.db, { organizationId: org.organizationId, email: "boss@example.com", role: "viewer", createdBy: "x", now: SEED_TIME });
    const accepted = await acceptInvitation(store.db, { token, hashPassword: plainHash, minPasswordLength: 8, now: SEED_TIME + 3 });
    expect(accepted).toEqual({ userId: owner, email: "boss@example.com", organizationId: org.organizationId, role: "owner", joinedAt: SEED_TIME });
    const second = await createInvitation(store.db, { organizationId: org.organizationId, email: "new@example.com", role: "viewer", createdBy: "x", now: SEED_TIME });
    expect(await codeOf(acceptInvitation(store.db, { token: second.token, password: "short", hashPassword: plainHash, minPasswordLength: 8, now: SEED_TIME + 3 }))).toBe(Code.InvalidArgument);
  });

  it("keeps a browser session until it is signed out, idle too long or too old", async () => {
    const store = await backend.open();
    const org = await seedOrganization(store.db);
    const user = await person(store.db, org.organizationId, "web@example.com", "viewer");
    const token = await startWebSession(store.db, user, SEED_TIME);
    expect(await webSessionUser(store.db, token, SEED_TIME + 120_000)).toBe(user);
    expect(await store.db.selectFrom("web_sessions").select(["last_seen", "expires_at"]).executeTakeFirst()).toEqual({ last_seen: SEED_TIME + 120_000, expires_at: SEED_TIME + WEB_SESSION_MAX_MS });
    expect(await webSessionUser(store.db, token, SEED_TIME + 120_000 + WEB_SESSION_IDLE_MS)).toBeUndefined();
    const busy = await startWebSession(store.db, user, SEED_TIME);
    let at = SEED_TIME;
    while (at < SEED_TIME + WEB_SESSION_MAX_MS - WEB_SESSION_IDLE_MS) {
      at += WEB_SESSION_IDLE_MS / 2;
      expect(await webSessionUser(store.db, busy, at)).toBe(user);
    }
    expect(await webSessionUser(store.db, busy, SEED_TIME + WEB_SESSION_MAX_MS)).toBeUndefined();
    const signedOut = await startWebSession(store.db, user, SEED_TIME);
    await endWebSession(store.db, signedOut);
    expect(await webSessionUser(store.db, signedOut, SEED_TIME)).toBeUndefined();
    await startWebSession(store.db, user, SEED_TIME);
    expect(await removeEndedWebSessions(store.db, SEED_TIME + WEB_SESSION_MAX_MS)).toBe(1);
    expect(await store.db.selectFrom("web_sessions").select("token_hash").execute()).toEqual([]);
  });
});

describe("the secrets behind people and keys", () => {
  it("match only what made them, and rank roles owner > operator > viewer", () => {
    const key = newKeySecret();
    expect(key).toMatch(/^[a-z0-9]{32}$/);
    expect(keyMatches(key, hashKey(key))).toBe(true);
    expect(keyMatches(newKeySecret(), hashKey(key))).toBe(false);
    const stored = hashPassword("correct horse");
    expect(passwordMatches("correct horse", stored)).toBe(true);
    expect(passwordMatches("wrong horse", stored)).toBe(false);
    expect([roleAllows("owner", "operator"), roleAllows("operator", "owner"), roleAllows("viewer", "viewer")]).toEqual([true, false, true]);
  });
});
