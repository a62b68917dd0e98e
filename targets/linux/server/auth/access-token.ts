// Access tokens handed out by Authenticate: JWTs signed with HMAC-SHA256 under a secret that
// lives only in this process, so a restart invalidates every token. Only our own header is
// accepted, which rules out "alg: none" and key-confusion tricks.
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";

export interface AccessTokenClaims {
  /** The API key id the token was issued for (`sub`). */
  readonly keyId: string;
  /** Binds the token to the key as it was: a rotated or removed key ends its tokens. */
  readonly keyFingerprint: string;
  /** Milliseconds since the epoch. */
  readonly expiresAt: number;
}

export type TokenCheck = { ok: true; claims: AccessTokenClaims } | { ok: false; problem: string };

export interface AccessTokens {
  sign(keyId: string, keyFingerprint: string): string;
  verify(token: string): TokenCheck;
  /** An HMAC under the process secret, for fingerprints that mean nothing outside this process. */
  mac(text: string): Buffer;
}

export interface AccessTokenOptions {
  secret: Uint8Array;
  ttlMs: number;
  /** Milliseconds since the epoch. */
  now: () => number;
}

const header = base64url(Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })));
const headerDot = `${header}.`;

export function createAccessTokens(options: AccessTokenOptions): AccessTokens {
  const secret = Buffer.from(options.secret);
  const signature = (signed: string) => createHmac("sha256", secret).update(signed).digest();

  return {
    sign(keyId, keyFingerprint) {
      const issuedAt = Math.floor(options.now() / 1000);
      const payload = {
        sub: keyId,
        iat: issuedAt,
        exp: issuedAt + Math.max(1, Math.ceil(options.ttlMs / 1000)),
        jti: randomUUID(),
        rpc_creds_type: "api-key",
        kfp: keyFingerprint,
      };
      const signed = headerDot + base64url(Buffer.from(JSON.stringify(payload)));
      return `${signed}.${base64url(signature(signed))}`;
    },
    verify(token) {
      if (!token.startsWith(headerDot)) return { ok: false, problem: "not a token issued by this server" };
      const lastDot = token.lastIndexOf(".");
      if (lastDot <= headerDot.length) return { ok: false, problem: "malformed token" };
      const given = Buffer.from(token.slice(lastDot + 1), "base64url");
      const expected = signature(token.slice(0, lastDot));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return { ok: false, problem: "bad token signature" };
      }
      let claims: { sub?: unknown; exp?: unknown; kfp?: unknown };
      try {
        claims = JSON.parse(Buffer.from(token.slice(headerDot.length, lastDot), "base64url").toString("utf8"));
      } catch {
        return { ok: false, problem: "malformed token" };
      }
      if (typeof claims.sub !== "string" || typeof claims.exp !== "number" || typeof claims.kfp !== "string") {
        return { ok: false, problem: "malformed token" };
      }
      const expiresAt = claims.exp * 1000;
      if (expiresAt <= options.now()) return { ok: false, problem: "token expired" };
      return { ok: true, claims: { keyId: claims.sub, keyFingerprint: claims.kfp, expiresAt } };
    },
    mac(text) {
      return createHmac("sha256", secret).update(text).digest();
    },
  };
}

/** A fresh random secret for one process. */
export function newTokenSecret(): Uint8Array {
  return randomBytes(32);
}

function base64url(bytes: Buffer): string {
  return bytes.toString("base64url");
}
