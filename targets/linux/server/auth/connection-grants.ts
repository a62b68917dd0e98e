// Connections that authenticate once for all their calls (WebRTC, through their signaling call):
// what such a connection holds is the key it proved, checked on each of its calls against the
// keys in force, so a key changed or removed ends it, while the token's own expiry does not end a
// connection already made.
import { Code } from "../../../../core/index.js";
import { whenReady, type ConnectionGrant, type MaybeAsync } from "../transport/index.js";
import type { ApiKeyTable } from "./api-key-table.js";
import type { VerifiedTokens } from "./verified-tokens.js";

export type GrantCheck = { ok: true; keyId: string } | { ok: false; code: Code; message: string };

export interface ConnectionGrants {
  /** The grant a bearer `header` proves; undefined when it holds no valid token of a key in force. */
  grantOf(header: string | null | undefined): MaybeAsync<ConnectionGrant | undefined>;
  check(grant: ConnectionGrant): GrantCheck;
}

const bearer = "Bearer ";

export function createConnectionGrants(keys: () => ApiKeyTable, verified: VerifiedTokens): ConnectionGrants {
  return {
    grantOf(header) {
      if (!header?.startsWith(bearer)) return undefined;
      return whenReady(verified.check(header.slice(bearer.length)), (result) =>
        result.ok && keys().has(result.claims.keyFingerprint) ? { keyId: result.claims.keyId, keyFingerprint: result.claims.keyFingerprint } : undefined,
      );
    },
    check(grant) {
      if (keys().has(grant.keyFingerprint)) return { ok: true, keyId: grant.keyId };
      return {
        ok: false,
        code: Code.Unauthenticated,
        message: `unauthenticated: API key ${JSON.stringify(grant.keyId)} has been changed or removed; connect again`,
      };
    },
  };
}
