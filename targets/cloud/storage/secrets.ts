// The secrets svc-cloud hands out and checks: API keys (random, kept only as a sha256, which is
// enough for 190 random bits) and people's passwords (kept as scrypt, which is slow on purpose).
import { createHash, randomBytes, randomUUID, scryptSync, timingSafeEqual } from "node:crypto";

const KEY_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** A new API key's secret: 32 characters from [a-z0-9], as Viam's keys look. */
export function newKeySecret(): string {
  const bytes = randomBytes(64);
  let key = "";
  // 252 is the largest multiple of 36 below 256: bytes past it are skipped, so no letter is likelier.
  for (const byte of bytes) {
    if (byte >= 252) continue;
    key += KEY_ALPHABET[byte % 36];
    if (key.length === 32) return key;
  }
  return key + newKeySecret().slice(key.length);
}

export function newId(): string {
  return randomUUID();
}

export function hashKey(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** Whether `secret` is the key whose hash is `hash`, in time that does not depend on where they differ. */
export function keyMatches(secret: string, hash: string): boolean {
  const a = Buffer.from(hashKey(secret), "hex");
  const b = Buffer.from(hash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

const SCRYPT = { N: 16384, r: 8, p: 1 };

export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, 32, SCRYPT);
  return ["scrypt", SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

export function passwordMatches(password: string, stored: string): boolean {
  const [kind, n, r, p, salt, hash] = stored.split("$");
  if (kind !== "scrypt" || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, "base64url");
  const got = scryptSync(password, Buffer.from(salt, "base64url"), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return timingSafeEqual(got, expected);
}
