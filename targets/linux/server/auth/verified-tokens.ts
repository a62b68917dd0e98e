// Tokens already verified, remembered by the token itself, so a busy client pays for one
// signature check, not one per call. What is remembered keeps to `exp` (checked on every use)
// and holds only what the signature vouched for; whether the token's key is still configured is
// the caller's question, asked every time. Only tokens that verified are remembered, so no
// caller can fill the memory with junk; the oldest go first when it is full. A remembered token is
// answered at once, in the caller's own turn.
import type { MaybeAsync } from "../transport/index.js";
import type { AccessTokenClaims, TokenCheck } from "./access-token.js";

export interface VerifiedTokens {
  check(token: string): MaybeAsync<TokenCheck>;
}

export interface VerifiedTokensOptions {
  verify(token: string): Promise<TokenCheck>;
  /** Milliseconds since the epoch. */
  now: () => number;
  /** Default 1024. */
  capacity?: number;
}

export function createVerifiedTokens(options: VerifiedTokensOptions): VerifiedTokens {
  const capacity = options.capacity ?? 1024;
  // A Map iterates in insertion order: the first key is the oldest.
  const remembered = new Map<string, AccessTokenClaims>();

  return {
    check(token) {
      const claims = remembered.get(token);
      if (claims) {
        if (claims.expiresAt > options.now()) return { ok: true as const, claims };
        remembered.delete(token);
        return { ok: false, problem: "token expired" };
      }
      return options.verify(token).then((result) => {
        if (result.ok) {
          if (remembered.size >= capacity) remembered.delete(remembered.keys().next().value!);
          remembered.set(token, result.claims);
        }
        return result;
      });
    },
  };
}
