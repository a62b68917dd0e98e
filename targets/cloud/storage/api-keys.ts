// API keys: an organisation's (for scripts and the SDK's app client), each part's (the machine's
// own credentials) and provisioning keys (they only make machines in one location with one
// fragment attached). Only a hash of the secret is kept; the secret is shown once, when the key is
// made.
import type { Kysely } from "kysely";
import { hashKey, newId, newKeySecret } from "./secrets.js";
import type { ApiKeysTable, KeyScope, Tables } from "./tables.js";

export interface NewKey {
  id: string;
  key: string;
}

export interface KeyValues {
  organizationId: string;
  name: string;
  scope: KeyScope;
  scopeId: string;
  /** The fragment a provisioning key attaches. */
  fragmentId?: string;
  now: number;
}

export async function createApiKey(db: Kysely<Tables>, values: KeyValues): Promise<NewKey> {
  const id = newId();
  const key = newKeySecret();
  await db
    .insertInto("api_keys")
    .values({ id, organization_id: values.organizationId, name: values.name, key_hash: hashKey(key), scope: values.scope, scope_id: values.scopeId, fragment_id: values.fragmentId ?? null, created_at: values.now, revoked_at: null })
    .execute();
  return { id, key };
}

export function findApiKey(db: Kysely<Tables>, id: string): Promise<ApiKeysTable | undefined> {
  return db.selectFrom("api_keys").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Revokes a key; true when it existed and was live. */
export async function revokeApiKey(db: Kysely<Tables>, id: string, now: number): Promise<boolean> {
  const result = await db.updateTable("api_keys").set({ revoked_at: now }).where("id", "=", id).where("revoked_at", "is", null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export function listApiKeys(db: Kysely<Tables>, organizationId: string): Promise<ApiKeysTable[]> {
  return db.selectFrom("api_keys").selectAll().where("organization_id", "=", organizationId).where("revoked_at", "is", null).orderBy("created_at").execute();
}

/** The live provisioning keys that attach `fragmentId`. */
export function provisioningKeysOf(db: Kysely<Tables>, organizationId: string, fragmentId: string): Promise<ApiKeysTable[]> {
  return db.selectFrom("api_keys").selectAll().where("fragment_id", "=", fragmentId).where("organization_id", "=", organizationId).where("scope", "=", "provisioning").where("revoked_at", "is", null).orderBy("created_at").execute();
}
