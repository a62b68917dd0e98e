// API-key authentication as the official SDKs speak it: `AuthService/Authenticate` with the key
// id as `entity` and `{type: "api-key", payload: <key>}` returns an access token; every other call
// then carries `authorization: Bearer <token>`. When no api-key handler is configured, every call
// is let through. The keys follow the configuration: `auth` may be a function, read on every
// check, so an edit that removes a key ends its tokens as soon as the machine takes the edit, and
// an edit the machine refuses changes nothing. Tokens survive an edit unless their key changed.
import { ConnectError, createContextKey, type Interceptor } from "@connectrpc/connect";
import { Code, type AuthConfig, type LoggerLike } from "../../../../core/index.js";
import { admittedEntityKey, createPeerLogLimit, loggedValue, peerKey, peerOfRequest, whenReady, type HttpRequest, type MaybeAsync, type Peer, type ConnectionGrant } from "../transport/index.js";
import { createAccessTokens, newTokenSecret } from "./access-token.js";
import { createApiKeyTable, type ApiKeyTable } from "./api-key-table.js";
import { plaintextCredentialsProblem } from "./plaintext-credentials.js";
import { createVerifiedTokens } from "./verified-tokens.js";
import { createConnectionGrants } from "./connection-grants.js";

export const DEFAULT_TOKEN_TTL_MS = 60 * 60 * 1000;

/** The API key id a call was authenticated with; "" when authentication is off. */
export const authEntityKey = createContextKey<string>("", { description: "svc authenticated key id" });

export interface ApiKeyAuthOptions {
  /** The auth section, or where to read the running one from (same object while it is unchanged). */
  auth: AuthConfig | (() => AuthConfig);
  /** How long a token is good for. Default one hour. */
  tokenTtlMs?: number;
  /** -allow-insecure-creds: accept credentials over plaintext from other machines. */
  allowInsecureCreds?: boolean;
  /** Milliseconds since the epoch; tests move it to expire tokens. */
  now?: () => number;
  /** The token signing secret; a random one per process by default. */
  secret?: Uint8Array;
  /** True for an entity naming this machine: what a key without an id authenticates. Default: none does. */
  namesThisMachine?: (entity: string) => boolean;
  logger?: LoggerLike;
}

export type AuthorizationCheck = { ok: true; keyId: string } | { ok: false; code: Code; message: string };

export interface ApiKeyAuth {
  /** True when an api-key handler is configured: calls then need a token. */
  readonly enabled: boolean;
  /**
   * The Authenticate call: resolves with an access token, or rejects with a ConnectError
   * (INVALID_ARGUMENT for an unknown credential type, PERMISSION_DENIED for a bad key or for
   * credentials over plaintext from another machine).
   */
  authenticate(entity: string, credentials: { type: string; payload: string } | undefined, peer: Peer): Promise<string>;
  /** Checks the value of an `authorization` header sent by `peer`; at once for a token already verified. */
  checkAuthorization(header: string | null | undefined, peer: Peer): MaybeAsync<AuthorizationCheck>;
  /**
   * What a connection that authenticates once for all its calls (WebRTC, through its signaling
   * call's `authorization` header) holds: checked on each call against the keys in force, so a
   * key changed or removed ends it, while the token's own expiry does not end a connection
   * already made. Undefined when the header holds no valid token.
   */
  grantOf(header: string | null | undefined): MaybeAsync<ConnectionGrant | undefined>;
  /** Checks a plain HTTP request's `authorization` header, from its real peer (address and TLS). */
  checkRequest(req: HttpRequest): MaybeAsync<AuthorizationCheck>;
  /** Takes the keys of a new configuration (for an `auth` given as a value). */
  update(auth: AuthConfig): void;
  /** Refuses every call but Authenticate without a valid token, when enabled. */
  readonly interceptor: Interceptor;
}

const authServiceName = "proto.rpc.v1.AuthService";
const bearer = "Bearer ";

export function createApiKeyAuth(options: ApiKeyAuthOptions): ApiKeyAuth {
  const now = options.now ?? Date.now;
  const allowInsecure = options.allowInsecureCreds === true;
  const logger = options.logger;
  const namesThisMachine = options.namesThisMachine ?? (() => false);
  const tokens = createAccessTokens({
    secret: options.secret ?? newTokenSecret(),
    ttlMs: options.tokenTtlMs ?? DEFAULT_TOKEN_TTL_MS,
    now,
  });
  const verified = createVerifiedTokens({ verify: tokens.verify, now });
  const grants = createConnectionGrants(() => keys(), verified);
  // Anyone may call Authenticate: what it logs is bounded, and only a few lines per address a minute.
  const refusalLines = createPeerLogLimit({ now });
  const logRefusal = (message: string, peer: Peer, entity: string) => {
    const extra = refusalLines.admit(peer.address);
    if (extra) logger?.warn(message, { peer: peer.address, entity: loggedValue(entity), ...extra });
  };
  let source: () => AuthConfig = typeof options.auth === "function" ? options.auth : constant(options.auth);
  let tableOf: AuthConfig | undefined;
  let table: ApiKeyTable | undefined;

  // The table of the auth section in force now, rebuilt only when the section changes.
  function keys(): ApiKeyTable {
    const auth = source();
    if (auth !== tableOf || !table) {
      table = createApiKeyTable(auth, tokens.mac, namesThisMachine);
      tableOf = auth;
    }
    return table;
  }

  function verify(token: string): MaybeAsync<AuthorizationCheck> {
    return whenReady(verified.check(token), (result) => {
      if (!result.ok) return { ok: false, code: Code.Unauthenticated, message: `unauthenticated: ${result.problem}` };
      if (!keys().has(result.claims.keyFingerprint)) {
        return {
          ok: false,
          code: Code.Unauthenticated,
          message: `unauthenticated: API key ${JSON.stringify(result.claims.keyId)} has been changed or removed; authenticate again`,
        };
      }
      return { ok: true, keyId: result.claims.keyId };
    });
  }

  function checkAuthorization(header: string | null | undefined, peer: Peer): MaybeAsync<AuthorizationCheck> {
    if (!keys().enabled) return { ok: false, code: Code.Unauthenticated, message: "no API keys are configured" };
    if (!header && peer.grant) return grants.check(peer.grant);
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
  }

  const auth: ApiKeyAuth = {
    get enabled() {
      return keys().enabled;
    },
    async authenticate(entity, credentials, peer) {
      const type = credentials?.type ?? "";
      const table = keys();
      if (!table.enabled || type !== "api-key") {
        throw new ConnectError(`do not know how to handle credential type ${JSON.stringify(type)}`, Code.InvalidArgument);
      }
      const insecure = plaintextCredentialsProblem(peer, allowInsecure);
      if (insecure) {
        logRefusal("credentials refused over plaintext", peer, entity);
        throw new ConnectError(insecure, Code.PermissionDenied);
      }
      const matched = table.check(entity, credentials?.payload ?? "");
      if (matched === undefined) {
        logRefusal("authentication failed: invalid credentials", peer, entity);
        throw new ConnectError("invalid credentials", Code.PermissionDenied);
      }
      return tokens.sign(matched.keyId, matched.fingerprint);
    },
    checkAuthorization,
    grantOf: grants.grantOf,
    checkRequest: (req) => checkAuthorization(req.headers.authorization, peerOfRequest(req)),
    update(next) {
      source = constant(next);
    },
    interceptor: createAuthInterceptor(() => keys().enabled, checkAuthorization, logger),
  };
  return auth;
}

// Refuses a call without a valid token, unless the port already admitted it. Not async: a call
// the port admitted goes on in the same turn.
function createAuthInterceptor(
  enabled: () => boolean,
  checkAuthorization: ApiKeyAuth["checkAuthorization"],
  logger: LoggerLike | undefined,
): Interceptor {
  return (next) => (req) => {
    if (!enabled() || (req.method.name === "Authenticate" && req.service.typeName === authServiceName)) {
      return next(req);
    }
    // The port checked this call's token before reading its body, against the same keys.
    const admitted = req.contextValues.get(admittedEntityKey);
    if (admitted !== "") {
      req.contextValues.set(authEntityKey, admitted);
      return next(req);
    }
    const header = req.header.get("authorization");
    const peer = req.contextValues.get(peerKey);
    return new Promise<AuthorizationCheck>((resolve) => resolve(checkAuthorization(header, peer))).then((check) => {
      if (!check.ok) {
        logger?.debug("call refused", { method: `${req.service.typeName}/${req.method.name}`, reason: check.message });
        throw new ConnectError(check.message, check.code);
      }
      req.contextValues.set(authEntityKey, check.keyId);
      return next(req);
    });
  };
}

function constant(auth: AuthConfig): () => AuthConfig {
  return () => auth;
}
