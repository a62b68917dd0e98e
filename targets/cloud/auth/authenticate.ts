// Exchanges credentials for an access token: an API key (`api-key`, entity = the key's id, as the
// official SDK sends it) or a person's email and password (`password`, for the web app). Every
// refusal says the same thing, so an attacker learns nothing of which part was wrong. A
// provisioning key, once its secret is right, is told it signs in nowhere (auth/provisioning-key.ts).
import { Code, SvcError } from "../../../core/index.js";
import type { Store } from "../storage/open-store.js";
import { findApiKey } from "../storage/api-keys.js";
import type { LoginLimiter } from "./login-limiter.js";
import { keySubject, userSubject } from "./principal.js";
import { provisioningKeyRefusal } from "./provisioning-key.js";
import { keyMatches, passwordMatches } from "../storage/secrets.js";
import type { TokenIssuer } from "./token-issuer.js";

export interface Credentials {
  entity: string;
  type: string;
  payload: string;
  /** The caller's address, for the sign-in limit. */
  peer: string;
}

const refused = () => new SvcError(Code.Unauthenticated, "invalid credentials");

export async function authenticate(store: Store, issuer: TokenIssuer, limiter: LoginLimiter, credentials: Credentials): Promise<string> {
  return issuer.issue(await signedInSubject(store, limiter, credentials));
}

/** Who the credentials are, within the sign-in limit; every refusal alike. */
export async function signedInSubject(store: Store, limiter: LoginLimiter, credentials: Credentials): Promise<string> {
  const { entity, type, payload, peer } = credentials;
  await limiter.check(entity, peer);
  const subject = await subjectOf(store, type, entity, payload);
  if (subject === undefined) {
    await limiter.failed(entity, peer);
    throw refused();
  }
  return subject;
}

async function subjectOf(store: Store, type: string, entity: string, payload: string): Promise<string | undefined> {
  if (type === "api-key") {
    const key = await findApiKey(store.db, entity);
    if (key === undefined || key.revoked_at !== null || !keyMatches(payload, key.key_hash)) return undefined;
    if (key.scope === "provisioning") throw provisioningKeyRefusal();
    return keySubject(key.id);
  }
  if (type === "password") {
    const user = await store.db.selectFrom("users").select(["id", "password_hash"]).where("email", "=", entity.toLowerCase()).executeTakeFirst();
    if (user === undefined || !passwordMatches(payload, user.password_hash)) return undefined;
    return userSubject(user.id);
  }
  throw new SvcError(Code.InvalidArgument, `unsupported credential type "${type}" (svc-cloud takes "api-key" and "password")`);
}
