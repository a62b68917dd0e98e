// The API keys of `auth.handlers[{type: "api-key", config: {"<key id>": "<key>"}}]`, held as
// digests and compared in constant time, so neither a key nor how much of it matched leaks
// through timing.
import { createHash, timingSafeEqual } from "node:crypto";
import type { AuthConfig } from "../../../../core/index.js";

export interface ApiKeyTable {
  /** Whether any api-key handler is configured (with or without keys). */
  readonly enabled: boolean;
  /** The key id when `key` is the key of `keyId`; undefined otherwise. */
  check(keyId: string, key: string): string | undefined;
  /** Identifies the key of `keyId` as configured now; undefined for an unknown id. */
  fingerprint(keyId: string): string | undefined;
}

interface StoredKey {
  digest: Buffer;
  fingerprint: string;
}

// Compared against when the key id is unknown, so a miss costs what a wrong key costs.
const unknownKey = createHash("sha256").update("no such key").digest();

export function createApiKeyTable(auth: AuthConfig, mac: (text: string) => Buffer): ApiKeyTable {
  const keys = new Map<string, StoredKey>();
  const handlers = auth.handlers.filter((handler) => handler.type === "api-key");
  for (const handler of handlers) {
    for (const [keyId, key] of Object.entries(handler.config)) {
      keys.set(keyId, {
        digest: digest(key),
        fingerprint: mac(`api-key\0${keyId}\0${key}`).subarray(0, 12).toString("base64url"),
      });
    }
  }
  return {
    enabled: handlers.length > 0,
    check(keyId, key) {
      const stored = keys.get(keyId);
      const same = timingSafeEqual(digest(key), stored?.digest ?? unknownKey);
      return same && stored ? keyId : undefined;
    },
    fingerprint(keyId) {
      return keys.get(keyId)?.fingerprint;
    },
  };
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
