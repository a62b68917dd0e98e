// Browser sign-ins: a session is a random token the browser holds in a cookie; the store keeps its
// sha256 only, so a copy of the store signs nobody in. A session ends when signed out, after
// `WEB_SESSION_IDLE_MS` unused, or `WEB_SESSION_MAX_MS` after sign-in however busy.
import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { hashKey } from "./secrets.js";
import type { Tables } from "./tables.js";

export const WEB_SESSION_IDLE_MS = 12 * 3600_000;
export const WEB_SESSION_MAX_MS = 7 * 24 * 3600_000;
/** How stale `last_seen` may be before a use writes it again. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

/** Makes a session for the user; answers the token for the cookie. */
export async function startWebSession(db: Kysely<Tables>, userId: string, now: number): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db
    .insertInto("web_sessions")
    .values({ token_hash: hashKey(token), user_id: userId, created_at: now, last_seen: now, expires_at: now + WEB_SESSION_MAX_MS })
    .execute();
  return token;
}

/** The user of a live session, noting its use; undefined for a token that is not one (any longer). */
export async function webSessionUser(db: Kysely<Tables>, token: string, now: number): Promise<string | undefined> {
  const hash = hashKey(token);
  const row = await db.selectFrom("web_sessions").select(["user_id", "last_seen", "expires_at"]).where("token_hash", "=", hash).executeTakeFirst();
  if (row === undefined) return undefined;
  if (now >= Number(row.expires_at) || now - Number(row.last_seen) >= WEB_SESSION_IDLE_MS) {
    await db.deleteFrom("web_sessions").where("token_hash", "=", hash).execute();
    return undefined;
  }
  if (now - Number(row.last_seen) >= LAST_SEEN_RESOLUTION_MS) {
    await db.updateTable("web_sessions").set({ last_seen: now }).where("token_hash", "=", hash).execute();
  }
  return row.user_id;
}

export async function endWebSession(db: Kysely<Tables>, token: string): Promise<void> {
  await db.deleteFrom("web_sessions").where("token_hash", "=", hashKey(token)).execute();
}

/** Removes the sessions that can no longer be used; answers how many. */
export async function removeEndedWebSessions(db: Kysely<Tables>, now: number): Promise<number> {
  const result = await db
    .deleteFrom("web_sessions")
    .where((eb) => eb.or([eb("expires_at", "<=", now), eb("last_seen", "<=", now - WEB_SESSION_IDLE_MS)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
