// The API keys of a configuration's api-key handler, as svc-server reads them: "<key id>": "<key>"
// authenticates that id; a key without an id (Viam's legacy `key` / `keys`) authenticates an
// entity naming this machine. There is no digest on the MCU (XS has no crypto), so keys are
// compared in constant time as text: the time taken depends on the length of what the caller
// sent, never on the stored key or on how much of it matched. A miss on the key id costs what a
// wrong key costs.
import type { AuthConfig } from "../../core/index.js";

/** What a token is issued for, and what must still be configured for it to stay good. */
export interface KeyGrant {
  /** The key id, or for a key without an id the entity the caller named. */
  readonly keyId: string;
  /** The key itself, so a rotated or removed key ends its tokens. */
  readonly key: string;
  /** A key without an id. */
  readonly legacy: boolean;
}

export interface ApiKeyTable {
  /** Whether an api-key handler is configured (with or without keys). */
  readonly enabled: boolean;
  /** The grant for a caller naming `entity` with `key`; undefined when the key is none of ours. */
  check(entity: string, key: string): KeyGrant | undefined;
  /** Whether the key a grant was made for is configured now, as it was. */
  holds(grant: KeyGrant): boolean;
}

/** Whether two texts are equal, in time that depends only on `given`'s length. */
function sameText(given: string, stored: string): boolean {
  let differ = given.length ^ stored.length;
  const n = stored.length === 0 ? 1 : stored.length;
  for (let i = 0; i < given.length; i++) differ |= given.charCodeAt(i) ^ (stored.charCodeAt(i % n) | 0);
  return differ === 0;
}

const hasOwn = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

export function createApiKeyTable(auth: AuthConfig, namesThisMachine: (entity: string) => boolean): ApiKeyTable {
  const handlers = auth.handlers.filter((handler) => handler.type === "api-key");
  // Own properties only: an id such as "__proto__" or "toString" is an id like any other.
  const byId: Record<string, string> = Object.create(null) as Record<string, string>;
  const withoutId: string[] = [];
  for (const handler of handlers) {
    for (const id of Object.keys(handler.config)) if (hasOwn(handler.config, id)) byId[id] = handler.config[id]!;
    withoutId.push(...(handler.legacy_keys ?? []));
  }

  return {
    enabled: handlers.length > 0,
    check(entity, key) {
      const stored = hasOwn(byId, entity) ? byId[entity] : undefined;
      if (sameText(key, stored ?? "\u0000no such key") && stored !== undefined) return { keyId: entity, key: stored, legacy: false };
      if (stored !== undefined || withoutId.length === 0 || !namesThisMachine(entity)) return undefined;
      // Every key is compared, so the time taken does not say which one matched.
      let matched: string | undefined;
      for (const candidate of withoutId) if (sameText(key, candidate) && matched === undefined) matched = candidate;
      return matched === undefined ? undefined : { keyId: entity, key: matched, legacy: true };
    },
    holds(grant) {
      if (grant.legacy) return withoutId.indexOf(grant.key) >= 0;
      return hasOwn(byId, grant.keyId) && byId[grant.keyId] === grant.key;
    },
  };
}
