// API-key authentication as the official SDKs speak it: `AuthService/Authenticate` with the key
// id as `entity` and `{type: "api-key", payload: <key>}` returns an access token; every other call
// then carries `authorization: Bearer <token>`. When no api-key handler is configured, every call
// is let through. Keys can change while the server runs (`update`); tokens survive a
// reconfiguration unless their key was changed or removed.
import { Code, ConnectError, createContextKey, type Interceptor } from "@connectrpc/connect";
import type { AuthConfig, LoggerLike } from "../../../../core/index.js";
import { peerKey, type Peer } from "../transport/index.js";
import { createAccessTokens, newTokenSecret, type AccessTokenClaims } from "./access-token.js";
import { createApiKeyTable, type ApiKeyTable } from "./api-key-table.js";
import { plaintextCredentialsProblem } from "./plaintext-credentials.js";

export const DEFAULT_TOKEN_TTL_MS = 60 * 60 * 1000;

/** The API key id a call was authenticated with; "" when authentication is off. */
export const authEntityKey = createContextKey<string>("", { description: "svc authenticated key id" });

export interface ApiKeyAuthOptions {
  auth: AuthConfig;
  /** How long a token is good for. Default one hour. */
  tokenTtlMs?: number;
  /** -allow-insecure-creds: accept credentials over plaintext from other machines. */
  allowInsecureCreds?: boolean;
  /** Milliseconds since the epoch; tests move it to expire tokens. */
  now?: () => number;
  /** The token signing secret; a random one per process by default. */
  secret?: Uint8Array;
  logger?: LoggerLike;
}

export type AuthorizationCheck = { ok: true; keyId: string } | { ok: false; code: Code; message: string };

export interface ApiKeyAuth {
  /** True when an api-key handler is configured: calls then need a token. */
  readonly enabled: boolean;
  /**
   * The Authenticate call: returns an access token, or throws a ConnectError
   * (INVALID_ARGUMENT for an unknown credential type, PERMISSION_DENIED for a bad key or for
   * credentials over plaintext from another machine).
   */
  authenticate(entity: string, credentials: { type: string; payload: string } | undefined, peer: Peer): string;
  /** Checks the value of an `authorization` header sent by `peer`. */
  checkAuthorization(header: string | null | undefined, peer: Peer): AuthorizationCheck;
  /** Takes the keys of a new configuration. */
  update(auth: AuthConfig): void;
  /** Refuses every call but Authenticate without a valid token, when enabled. */
  readonly interceptor: Interceptor;
}

const authServiceName = "proto.rpc.v1.AuthService";
const bearer = "Bearer ";
// Verified tokens, so a busy client does not pay for an HMAC on every call.
const tokenCacheSize = 1024;

export function createApiKeyAuth(options: ApiKeyAuthOptions): ApiKeyAuth {
  const now = options.now ?? Date.now;
  const allowInsecure = options.allowInsecureCreds === true;
  const logger = options.logger;
  const tokens = createAccessTokens({
    secret: options.secret ?? newTokenSecret(),
    ttlMs: options.tokenTtlMs ?? DEFAULT_TOKEN_TTL_MS,
    now,
  });
  let keys: ApiKeyTable = createApiKeyTable(options.auth, tokens.mac);
  const verified = new Map<string, AccessTokenClaims>();

  function verify(token: string): AuthorizationCheck {
    let claims = verified.get(token);
    if (!claims) {
      const result = tokens.verify(token);
      if (!result.ok) return { ok: false, code: Code.Unauthenticated, message: `unauthenticated: ${result.problem}` };
      claims = result.claims;
      if (verified.size >= tokenCacheSize) verified.clear();
      verified.set(token, claims);
    }
    if (claims.expiresAt <= now()) {
      verified.delete(token);
      return { ok: false, code: Code.Unauthenticated, message: "unauthenticated: token expired" };
    }
    if (keys.fingerprint(claims.keyId) !== claims.keyFingerprint) {
      return {
        ok: false,
        code: Code.Unauthenticated,
        message: `unauthenticated: API key ${JSON.stringify(claims.keyId)} has been changed or removed; authenticate again`,
      };
    }
    return { ok: true, keyId: claims.keyId };
  }

  const auth: ApiKeyAuth = {
    get enabled() {
      return keys.enabled;
    },
    authenticate(entity, credentials, peer) {
      const type = credentials?.type ?? "";
      if (!keys.enabled || type !== "api-key") {
        throw new ConnectError(`do not know how to handle credential type ${JSON.stringify(type)}`, Code.InvalidArgument);
      }
      const insecure = plaintextCredentialsProblem(peer, allowInsecure);
      if (insecure) {
        logger?.warn("credentials refused over plaintext", { peer: peer.address, entity });
        throw new ConnectError(insecure, Code.PermissionDenied);
      }
      const keyId = keys.check(entity, credentials?.payload ?? "");
      if (keyId === undefined) {
        logger?.warn("authentication failed: invalid credentials", { peer: peer.address, entity });
        throw new ConnectError("invalid credentials", Code.PermissionDenied);
      }
      return tokens.sign(keyId, keys.fingerprint(keyId)!);
    },
    checkAuthorization(header, peer) {
      if (!keys.enabled) return { ok: false, code: Code.Unauthenticated, message: "no API keys are configured" };
      if (!header) {
        return {
          ok: false,
          code: Code.Unauthenticated,
          message: `authentication required: send "authorization: Bearer <token>" with a token from ${authServiceName}/Authenticate`,
        };
      }
      const insecure = plaintextCredentialsProblem(peer, allowInsecure);
      if (insecure) return { ok: false, code: Code.PermissionDenied, message: insecure };
      if (!header.startsWith(bearer)) {
        return { ok: false, code: Code.Unauthenticated, message: 'expected "authorization: Bearer <token>"' };
      }
      return verify(header.slice(bearer.length));
    },
    update(next) {
      keys = createApiKeyTable(next, tokens.mac);
      verified.clear();
    },
    interceptor: (next) => async (req) => {
      if (!keys.enabled || (req.method.name === "Authenticate" && req.service.typeName === authServiceName)) {
        return next(req);
      }
      const check = auth.checkAuthorization(req.header.get("authorization"), req.contextValues.get(peerKey));
      if (!check.ok) {
        logger?.debug("call refused", { method: `${req.service.typeName}/${req.method.name}`, reason: check.message });
        throw new ConnectError(check.message, check.code);
      }
      req.contextValues.set(authEntityKey, check.keyId);
      return next(req);
    },
  };
  return auth;
}
