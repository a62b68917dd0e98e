// The API keys of the configured api-key handler, held as digests and compared in constant time,
// so neither a key nor how much of it matched leaks through timing. A key with an id
// ("<key id>": "<key>") authenticates that id. A key without one (Viam's legacy `key` / `keys`)
// authenticates an entity that names this machine: one of its names, alone or with its port,
// which is what the official SDK sends when it is given no authEntity ("localhost:8080").
import { createHash, timingSafeEqual } from "node:crypto";
import type { AuthConfig } from "../../../../core/index.js";

export interface MatchedKey {
  /** The key id, or for a key without an id the entity the caller named. */
  readonly keyId: string;
  readonly fingerprint: string;
}

export interface ApiKeyTable {
  /** Whether an api-key handler is configured (with or without keys). */
  readonly enabled: boolean;
  /** The key `key` is, for the caller naming `entity`; undefined when it is none. */
  check(entity: string, key: string): MatchedKey | undefined;
  /** Whether a key with this fingerprint is configured now. */
  has(fingerprint: string): boolean;
}

interface StoredKey {
  digest: Buffer;
  fingerprint: string;
}

// Compared against when the key id is unknown, so a miss costs what a wrong key costs.
const unknownKey = createHash("sha256").update("no such key").digest();

export function createApiKeyTable(
  auth: AuthConfig,
  mac: (text: string) => Buffer,
  namesThisMachine: (entity: string) => boolean,
): ApiKeyTable {
  const byId = new Map<string, StoredKey>();
  const withoutId: StoredKey[] = [];
  const fingerprint = (text: string) => mac(text).subarray(0, 12).toString("base64url");
  const handlers = auth.handlers.filter((handler) => handler.type === "api-key");
  for (const handler of handlers) {
    for (const [keyId, key] of Object.entries(handler.config)) {
      byId.set(keyId, { digest: digest(key), fingerprint: fingerprint(`api-key\0${keyId}\0${key}`) });
    }
    for (const key of handler.legacy_keys ?? []) {
      withoutId.push({ digest: digest(key), fingerprint: fingerprint(`api-key without id\0${key}`) });
    }
  }
  const fingerprints = new Set([...byId.values(), ...withoutId].map((stored) => stored.fingerprint));

  return {
    enabled: handlers.length > 0,
    check(entity, key) {
      const given = digest(key);
      const stored = byId.get(entity);
      if (timingSafeEqual(given, stored?.digest ?? unknownKey) && stored) return { keyId: entity, fingerprint: stored.fingerprint };
      if (stored || withoutId.length === 0 || !namesThisMachine(entity)) return undefined;
      // Every key is compared, so the time taken does not say which one matched.
      let matched: StoredKey | undefined;
      for (const candidate of withoutId) if (timingSafeEqual(given, candidate.digest)) matched ??= candidate;
      return matched && { keyId: entity, fingerprint: matched.fingerprint };
    },
    has: (fingerprint) => fingerprints.has(fingerprint),
  };
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
