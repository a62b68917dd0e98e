// Tokens already verified, by their text, until their `exp`: a machine sends the same token on
// every call for an hour, and checking its ES256 signature each time was most of a small call's
// cost. Only the signature check is saved; the principal behind the token is still checked against
// the store on every call (resolve-principal.ts), so revocation stays immediate. Bounded: past
// `max` entries it starts afresh.
import type { Clock } from "../../../core/index.js";

export interface VerifiedTokens {
  /** The subject of a token verified before and not yet expired. */
  get(token: string): string | undefined;
  put(token: string, subject: string, expiresAtMs: number): void;
}

export function createVerifiedTokens(clock: Clock, max = 20_000): VerifiedTokens {
  const known = new Map<string, { subject: string; expiresAtMs: number }>();
  return {
    get: (token) => {
      const entry = known.get(token);
      if (entry === undefined) return undefined;
      if (clock.now() < entry.expiresAtMs) return entry.subject;
      known.delete(token);
      return undefined;
    },
    put: (token, subject, expiresAtMs) => {
      if (known.size >= max) known.clear();
      known.set(token, { subject, expiresAtMs });
    },
  };
}
