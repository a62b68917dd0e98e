// A token's subject, turned back into who is calling, from the store as it is now: a revoked key
// or a deleted person is refused here even while their token has not expired. The rows are kept
// between calls only while their tables are unchanged (kept-reads.ts), so that stays immediate.
// A provisioning key is no principal at all: whatever token names one is refused.
import { Code, SvcError } from "../../../core/index.js";
import type { Store } from "../storage/open-store.js";
import { keptReads } from "../storage/kept-reads.js";
import { preparedQuery } from "../storage/prepared-query.js";
import { keySubject, userSubject, type Principal } from "./principal.js";
import { provisioningKeyRefusal } from "./provisioning-key.js";

// Every call but signing in runs one of these: built once, their answers kept.
const keys = keptReads<KeyRow | undefined>(["api_keys"]);
const users = keptReads<UserRow | undefined>(["users"]);
const keyQuery = preparedQuery((db, id) => db.selectFrom("api_keys").select(["id", "organization_id", "scope", "scope_id", "revoked_at"]).where("id", "=", id));
const userQuery = preparedQuery((db, id) => db.selectFrom("users").select(["id", "email"]).where("id", "=", id));

type KeyRow = Awaited<ReturnType<typeof keyQuery.first>>;
type UserRow = Awaited<ReturnType<typeof userQuery.first>>;

export async function resolvePrincipal(store: Store, subject: string): Promise<Principal> {
  const colon = subject.indexOf(":");
  const kind = subject.slice(0, colon);
  const id = subject.slice(colon + 1);
  if (kind === "key") {
    const key = await keys.read(store, id, (db) => keyQuery.first(db, id));
    if (key === undefined || key.revoked_at !== null) throw new SvcError(Code.Unauthenticated, "the API key of this token was revoked");
    if (key.scope === "provisioning") throw provisioningKeyRefusal();
    return key.scope === "part"
      ? { kind: "part-key", subject: keySubject(key.id), keyId: key.id, organizationId: key.organization_id, partId: key.scope_id }
      : { kind: "organization-key", subject: keySubject(key.id), keyId: key.id, organizationId: key.organization_id };
  }
  if (kind === "user") {
    const user = await users.read(store, id, (db) => userQuery.first(db, id));
    if (user === undefined) throw new SvcError(Code.Unauthenticated, "the user of this token no longer exists");
    return { kind: "user", subject: userSubject(user.id), userId: user.id, email: user.email };
  }
  throw new SvcError(Code.Unauthenticated, "invalid access token: unknown subject");
}
