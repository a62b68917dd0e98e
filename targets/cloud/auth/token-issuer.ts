// Access tokens: JWTs signed with ES256 keys svc-cloud makes and keeps in its store, each with a
// `kid`, an `exp` and the principal's subject. Rotating makes a new signing key and retires the
// old one for signing only: it still verifies the tokens it signed until they expire, so no
// machine is logged out by a rotation. Keys are read again from the store when a token names one
// this process has not seen (another process may have rotated), and the signing key at each hourly
// check; replicas rotate one at a time, so they sign with one key.
import type { Kysely } from "kysely";
import { exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWTPayload } from "jose";
import { Code, SvcError, type Clock } from "../../../core/index.js";
import type { Store } from "../storage/open-store.js";
import { createVerifiedTokens } from "./verified-tokens.js";
import { newId } from "../storage/secrets.js";
import type { Tables } from "../storage/tables.js";
import { lockNamed } from "../storage/write-locks.js";

const ALG = "ES256";

export interface TokenIssuer {
  /** A token for `subject`, valid for the issuer's lifetime. */
  issue(subject: string): Promise<string>;
  /** The subject of a valid token; Unauthenticated otherwise. */
  verify(token: string): Promise<string>;
  /** Signs new tokens with a new key from now on. */
  rotate(): Promise<void>;
  /** Rotates when the signing key is `maxAgeMs` old or older; true when it did. */
  rotateIfOlderThan(maxAgeMs: number): Promise<boolean>;
}

export interface TokenIssuerOptions {
  store: Store;
  clock: Clock;
  /** How long a token is valid. */
  lifetimeMs: number;
  /** Who the tokens are for (the public URL), checked as the audience. */
  audience: string;
}

type Key = Awaited<ReturnType<typeof importJWK>>;

export function createTokenIssuer(options: TokenIssuerOptions): TokenIssuer {
  const { store, clock, lifetimeMs, audience } = options;
  const verifying = new Map<string, { key: Key; retiredAt: number | null }>();
  let signing: { kid: string; key: Key; createdAt: number } | undefined;
  let checking: Promise<unknown> = Promise.resolve();
  const verified = createVerifiedTokens(clock);

  const makeKey = async (db: Kysely<Tables> = store.db) => {
    const pair = await generateKeyPair(ALG, { extractable: true });
    const kid = newId();
    await db
      .insertInto("signing_keys")
      .values({
        kid,
        private_jwk: JSON.stringify(await exportJWK(pair.privateKey)),
        public_jwk: JSON.stringify(await exportJWK(pair.publicKey)),
        created_at: clock.now(),
        retired_at: null,
      })
      .execute();
    return kid;
  };

  const currentSigningKey = async () => {
    if (signing !== undefined) return signing;
    const row = await store.db.selectFrom("signing_keys").selectAll().where("retired_at", "is", null).orderBy("created_at", "desc").executeTakeFirst();
    if (row === undefined) {
      // The first key: made once, whichever replica signs first.
      await rotateIf(() => false);
      return currentSigningKey();
    }
    signing = { kid: row.kid, key: await importJWK(JSON.parse(row.private_jwk), ALG), createdAt: Number(row.created_at) };
    return signing;
  };

  const verifyingKey = async (kid: string) => {
    let known = verifying.get(kid);
    if (known === undefined) {
      const row = await store.db.selectFrom("signing_keys").select(["public_jwk", "retired_at"]).where("kid", "=", kid).executeTakeFirst();
      if (row === undefined) return undefined;
      known = { key: await importJWK(JSON.parse(row.public_jwk), ALG), retiredAt: row.retired_at === null ? null : Number(row.retired_at) };
      verifying.set(kid, known);
    }
    // A retired key verifies only what it could have signed before it retired.
    if (known.retiredAt !== null && known.retiredAt + lifetimeMs < clock.now()) return undefined;
    return known.key;
  };

  /**
   * Retires the signing key and makes a new one, when `due` says the newest is due (always, without
   * it; a first key is made either way). Replicas share the keys: one rotates at a time, reading the newest key afresh,
   * so a key another replica just made is not rotated again; the next key this one signs with is
   * read from the store.
   */
  const rotateIf = async (due?: (createdAt: number) => boolean) => {
    const rotated = await store.db.transaction().execute(async (tx) => {
      await lockNamed(tx, "signing-keys");
      const newest = await tx.selectFrom("signing_keys").select(["kid", "created_at"]).where("retired_at", "is", null).orderBy("created_at", "desc").executeTakeFirst();
      if (newest !== undefined && due !== undefined && !due(Number(newest.created_at))) return false;
      if (newest !== undefined) await tx.updateTable("signing_keys").set({ retired_at: clock.now() }).where("retired_at", "is", null).execute();
      await makeKey(tx);
      return true;
    });
    verifying.clear();
    signing = undefined;
    return rotated;
  };
  const rotate = async () => {
    await rotateIf();
  };

  return {
    issue: async (subject) => {
      const { kid, key } = await currentSigningKey();
      const now = Math.floor(clock.now() / 1000);
      return new SignJWT({})
        .setProtectedHeader({ alg: ALG, kid })
        .setSubject(subject)
        .setAudience(audience)
        .setIssuedAt(now)
        .setExpirationTime(now + Math.ceil(lifetimeMs / 1000))
        .sign(key);
    },
    verify: async (token) => {
      const known = verified.get(token);
      if (known !== undefined) return known;
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, async (header) => {
          const key = header.kid === undefined ? undefined : await verifyingKey(header.kid);
          if (key === undefined) throw new SvcError(Code.Unauthenticated, "the token's signing key is unknown or retired");
          return key;
        }, { algorithms: [ALG], audience, currentDate: new Date(clock.now()) }));
      } catch (thrown) {
        throw new SvcError(Code.Unauthenticated, `invalid access token: ${(thrown as Error).message}`);
      }
      if (typeof payload.sub !== "string") throw new SvcError(Code.Unauthenticated, "invalid access token: no subject");
      if (typeof payload.exp === "number") verified.put(token, payload.sub, payload.exp * 1000);
      return payload.sub;
    },
    rotate,
    rotateIfOlderThan: (maxAgeMs) => {
      // One check at a time: two overlapping checks must not both rotate.
      const check = checking.then(async () => {
        // Read afresh: another replica may have rotated since this one last signed.
        signing = undefined;
        return rotateIf((createdAt) => clock.now() - createdAt >= maxAgeMs);
      });
      checking = check.catch(() => false);
      return check;
    },
  };
}
