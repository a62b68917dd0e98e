// Access tokens on the MCU: 32 random bytes from the platform, in hex, each remembered with what
// it was issued for and until when, in a table of bounded size. Why not signed tokens as on
// svc-server: XS has no crypto, and a hand-written HMAC-SHA256 would cost flash, a few
// milliseconds of interpreted hashing per new token on a 240 MHz core, and a primitive of our own
// to keep right; a table of random tokens needs none of that, ends a token exactly when its key
// goes, holds nothing a caller without a key can add to, and a restart ends every token as a new
// signing secret does on the server. The price is the bound: past `capacity` live tokens the
// oldest is dropped, and its holder authenticates again.
import { Code, SvcError } from "../../core/index.js";

export type TokenLookup<T> = { ok: true; grant: T } | { ok: false; problem: string };

export interface TokenTable<T> {
  /** A new token for `grant`; throws UNAVAILABLE when the platform gives no random bytes. */
  issue(grant: T): string;
  /** What the token was issued for, while it is good. */
  find(token: string): TokenLookup<T>;
  /** Forgets a token (its key went away). */
  drop(token: string): void;
}

export interface TokenTableOptions {
  /** Milliseconds since the epoch. */
  now: () => number;
  /** `count` random bytes from the platform. */
  randomBytes: (count: number) => Uint8Array;
  ttlMs: number;
  capacity: number;
}

const TOKEN_BYTES = 32;
/**
 * Whether `token` is 64 lower-case hex digits. A loop, not a RegExp: on the host build, testing a
 * preloaded (flash-held) RegExp against a caller's token crashed Moddable's simulator (SIGSEGV
 * in RegExp exec), and a caller's header should meet as little machinery as possible.
 */
function tokenShaped(token: string): boolean {
  if (token.length !== TOKEN_BYTES * 2) return false;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

function hex(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i++) out += (bytes[i]! < 16 ? "0" : "") + bytes[i]!.toString(16);
  return out;
}

export function createTokenTable<T>(options: TokenTableOptions): TokenTable<T> {
  const { now, ttlMs, capacity } = options;
  // A Map iterates in insertion order: the first entry is the oldest.
  const live = new Map<string, { grant: T; expiresAt: number }>();

  function draw(): string {
    let bytes: Uint8Array | undefined;
    try {
      bytes = options.randomBytes(TOKEN_BYTES);
    } catch (thrown) {
      throw new SvcError(Code.Unavailable, `no random bytes from the platform for a token: ${String(thrown)}`);
    }
    if (!(bytes instanceof Uint8Array) || bytes.length !== TOKEN_BYTES) {
      throw new SvcError(Code.Unavailable, `no random bytes from the platform for a token: asked for ${TOKEN_BYTES}`);
    }
    return hex(bytes);
  }

  function sweep(at: number): void {
    for (const [token, entry] of live) if (entry.expiresAt <= at) live.delete(token);
    while (live.size >= capacity) live.delete(live.keys().next().value!);
  }

  return {
    issue(grant) {
      const token = draw();
      const at = now();
      sweep(at);
      live.set(token, { grant, expiresAt: at + ttlMs });
      return token;
    },
    find(token) {
      const entry = tokenShaped(token) ? live.get(token) : undefined;
      if (entry === undefined) return { ok: false, problem: "not a token issued by this machine" };
      if (entry.expiresAt <= now()) {
        live.delete(token);
        return { ok: false, problem: "token expired" };
      }
      return { ok: true, grant: entry.grant };
    },
    drop: (token) => void live.delete(token),
  };
}
