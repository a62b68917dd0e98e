// Access tokens handed out by Authenticate: JWTs (jose) signed HS256 under a secret that lives
// only in this process, so a restart ends every token. The header names the signing key (`kid`);
// the claims say which API key the token is for (`sub`, and `kfp`, a fingerprint of the key as it
// was, so a rotated or removed key ends its tokens) and until when (`exp`). Only HS256 under our
// own key id verifies: "alg: none", other algorithms and other secrets do not.
import { randomBytes, randomUUID, createHash, createHmac } from "node:crypto";
import { errors, jwtVerify, SignJWT, type JWTPayload } from "jose";

export interface AccessTokenClaims {
  /** The key id the token was issued for (`sub`), or for a key without an id the entity named. */
  readonly keyId: string;
  /** Binds the token to the key as it was: a rotated or removed key ends its tokens. */
  readonly keyFingerprint: string;
  /** Milliseconds since the epoch. */
  readonly expiresAt: number;
}

export type TokenCheck = { ok: true; claims: AccessTokenClaims } | { ok: false; problem: string };

export interface AccessTokens {
  sign(keyId: string, keyFingerprint: string): Promise<string>;
  verify(token: string): Promise<TokenCheck>;
  /** An HMAC under the process secret, for fingerprints that mean nothing outside this process. */
  mac(text: string): Buffer;
}

export interface AccessTokenOptions {
  secret: Uint8Array;
  ttlMs: number;
  /** Milliseconds since the epoch. */
  now: () => number;
}

/** Longer than any token this server signs; a longer one is refused before any work. */
export const MAX_TOKEN_LENGTH = 2048;

// Three base64url parts. The signature of HS256 is 32 bytes: exactly 43 characters, the last
// carrying two unused bits that must be zero. jose's decoder forgives trailing characters and
// set unused bits, so the exact form is checked here and no other spelling of a token verifies.
const compactJws = /^[\w-]+\.[\w-]+\.[\w-]*$/;
const hs256Signature = /\.[\w-]{42}[AEIMQUYcgkosw048]$/;

export function createAccessTokens(options: AccessTokenOptions): AccessTokens {
  const secret = Uint8Array.from(options.secret);
  const kid = createHash("sha256").update("svc access token key\0").update(secret).digest("base64url").slice(0, 16);
  const ttlSeconds = Math.max(1, Math.ceil(options.ttlMs / 1000));
  // Only our own key: a token naming another was signed by another server or an earlier run.
  const keyFor = (header: { kid?: string }) => {
    if (header.kid !== kid) throw new errors.JWSSignatureVerificationFailed();
    return secret;
  };

  return {
    sign(keyId, keyFingerprint) {
      const issuedAt = Math.floor(options.now() / 1000);
      return new SignJWT({ rpc_creds_type: "api-key", kfp: keyFingerprint })
        .setProtectedHeader({ alg: "HS256", typ: "JWT", kid })
        .setSubject(keyId)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ttlSeconds)
        .setJti(randomUUID())
        .sign(secret);
    },
    async verify(token) {
      if (token.length > MAX_TOKEN_LENGTH) return { ok: false, problem: "token too long" };
      if (!compactJws.test(token)) return { ok: false, problem: "not a token issued by this server" };
      if (!hs256Signature.test(token)) return { ok: false, problem: "bad token signature" };
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, keyFor, {
          algorithms: ["HS256"],
          typ: "JWT",
          requiredClaims: ["sub", "exp", "kfp"],
          currentDate: new Date(options.now()),
          clockTolerance: 0,
        }));
      } catch (error) {
        return { ok: false, problem: problemOf(error) };
      }
      const { sub, exp, kfp } = payload as { sub: unknown; exp: unknown; kfp: unknown };
      if (typeof sub !== "string" || typeof exp !== "number" || typeof kfp !== "string") {
        return { ok: false, problem: "not a token issued by this server" };
      }
      return { ok: true, claims: { keyId: sub, keyFingerprint: kfp, expiresAt: exp * 1000 } };
    },
    mac(text) {
      return createHmac("sha256", secret).update(text).digest();
    },
  };
}

function problemOf(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "token expired";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "bad token signature";
  return "not a token issued by this server";
}

/** A fresh random secret for one process. */
export function newTokenSecret(): Uint8Array {
  return randomBytes(32);
}
