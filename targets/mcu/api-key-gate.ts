// API-key authentication on the MCU, as svc-server does it and the official SDKs speak it:
// `proto.rpc.v1.AuthService/Authenticate` with the key id as `entity` and
// `{type: "api-key", payload: <key>}` returns an access token; every other call, and a
// configuration PUT, then carries `authorization: Bearer <token>`. The keys are the running
// configuration's, read on every check: an edit that removes or changes a key ends its tokens as
// soon as the machine takes it, and an edit it refuses changes nothing. With no api-key handler
// everything is let through, except on a machine whose stored configuration asked for
// authentication and could not be used: that one refuses everyone (see `AuthState`).
import { Code, SvcError, type AuthConfig, type LoggerLike, type NetworkConfig } from "../../core/index.js";
import { createApiKeyTable, type ApiKeyTable, type KeyGrant } from "./api-key-table.js";
import { entityNamesMachine, isLoopbackPeer } from "./peer-and-names.js";
import { createTokenTable } from "./token-table.js";

/** The keys in force, or why the machine refuses every caller. */
export type AuthState = { locked: string } | { locked?: undefined; auth: AuthConfig; network?: NetworkConfig };

export interface Refusal {
  code: Code;
  message: string;
}

export interface ApiKeyGateSettings {
  /** How long a token is good for. Default one hour, as on svc-server. */
  tokenTtlMs?: number;
  /** Tokens alive at once; a new one past this drops the oldest. Default 32. */
  maxTokens?: number;
  /** Names this machine answers to beyond "localhost" and the configuration's (an mDNS name). */
  hostNames?: readonly string[];
  /** The port it serves on: an entity may name the machine with it. */
  port?: number;
  /** Take credentials over plain HTTP from other machines (svc-server's -allow-insecure-creds). */
  allowInsecureCreds?: boolean;
  /** Why this host cannot serve API keys at all; a configuration with keys is then refused. */
  unavailable?: string;
}

export interface ApiKeyGateOptions extends ApiKeyGateSettings {
  current(): AuthState;
  /** Milliseconds since the epoch. */
  now(): number;
  /** Random bytes from the platform, for tokens. */
  randomBytes?: (count: number) => Uint8Array;
  logger?: LoggerLike;
}

export interface ApiKeyGate {
  /** Whether calls need a token now: keys are configured, or the machine is locked. */
  readonly required: boolean;
  /** Whether credentials from `peer` may be taken at all; undefined when they may. */
  credentialsProblem(peer: string | undefined): Refusal | undefined;
  /** Checks an `authorization` header sent by `peer`; undefined when the call may go on. */
  check(authorization: string | undefined, peer: string | undefined): Refusal | undefined;
  /** The Authenticate call: a token, or a SvcError (INVALID_ARGUMENT, PERMISSION_DENIED, UNAVAILABLE). */
  authenticate(entity: string, credentials: { type?: string; payload?: string } | undefined): string;
}

export const DEFAULT_TOKEN_TTL_MS = 60 * 60 * 1000;
export const AUTHENTICATE_PATH = "/proto.rpc.v1.AuthService/Authenticate";
const bearer = "Bearer ";
const noRandomBytes = () => {
  throw new Error("this host gives none");
};

/** How much of a caller's value goes into a log line or an answer. */
const SHOWN_CHARS = 64;
const REFUSAL_LINES_PER_MINUTE = 5;

/** A caller's value cut to a size fit for a log line or an error: it can be kilobytes. */
function shown(text: string): string {
  return text.length <= SHOWN_CHARS ? text : `${text.slice(0, SHOWN_CHARS)}… (${text.length} characters)`;
}

/**
 * Refusals logged at most a few a minute: a client repeating a failing login with a new value
 * each time is not folded by de-duplication, and must not flood the log (a device's `trace`).
 * Lines held back are counted on the next line written.
 */
function createRefusalLog(logger: LoggerLike | undefined, now: () => number) {
  let windowEnd = -Infinity;
  let written = 0;
  let heldBack = 0;
  return (message: string, fields: Record<string, unknown>) => {
    const at = now();
    if (at >= windowEnd) {
      windowEnd = at + 60_000;
      written = 0;
    }
    if (written >= REFUSAL_LINES_PER_MINUTE) {
      heldBack++;
      return;
    }
    written++;
    logger?.warn(message, heldBack > 0 ? { ...fields, held_back: heldBack } : fields);
    heldBack = 0;
  };
}

/** What the gate keeps: its settings, the tokens issued, and the key table of the auth section in force. */
interface GateState {
  readonly options: ApiKeyGateOptions;
  readonly logRefusal: (message: string, fields: Record<string, unknown>) => void;
  readonly tokens: ReturnType<typeof createTokenTable<KeyGrant>>;
  readonly namesThisMachine: (entity: string) => boolean;
  network: NetworkConfig | undefined;
  tableOf: AuthConfig | undefined;
  table: ApiKeyTable | undefined;
}

// The methods are thin: on a microcontroller each closure carries a copy of its code, so the
// work is in the module functions below, made once.
export function createApiKeyGate(options: ApiKeyGateOptions): ApiKeyGate {
  const state: GateState = {
    options,
    logRefusal: createRefusalLog(options.logger, options.now),
    tokens: createTokenTable<KeyGrant>({
      now: options.now,
      randomBytes: options.randomBytes ?? noRandomBytes,
      ttlMs: options.tokenTtlMs ?? DEFAULT_TOKEN_TTL_MS,
      capacity: Math.max(1, options.maxTokens ?? 32),
    }),
    namesThisMachine: (entity) => namesThisMachine(state, entity),
    network: undefined,
    tableOf: undefined,
    table: undefined,
  };
  return {
    get required() {
      const current = keys(state);
      return "code" in current || current.enabled;
    },
    credentialsProblem: (peer) => credentialsProblem(state, peer),
    check: (authorization, peer) => check(state, authorization, peer),
    authenticate: (entity, credentials) => authenticate(state, entity, credentials),
  };
}

function namesThisMachine(state: GateState, entity: string): boolean {
  const { options, network } = state;
  const names = ["localhost", ...(options.hostNames ?? [])];
  if (network) names.push(network.fqdn, network.local_fqdn, ...network.allowed_hosts);
  return entityNamesMachine(entity, names, options.port);
}

/** The table of the auth section in force now (rebuilt only when the section changes), or why none may be used. */
function keys(state: GateState): ApiKeyTable | Refusal {
  const current = state.options.current();
  if (current.locked !== undefined) return { code: Code.Unauthenticated, message: current.locked };
  state.network = current.network;
  if (current.auth !== state.tableOf || !state.table) {
    state.table = createApiKeyTable(current.auth, state.namesThisMachine);
    state.tableOf = current.auth;
  }
  return state.table;
}

function credentialsProblem(state: GateState, peer: string | undefined): Refusal | undefined {
  const current = keys(state);
  if ("code" in current) return current;
  if (state.options.allowInsecureCreds || isLoopbackPeer(peer ?? "")) return undefined;
  const from = peer ? peer : "an unknown peer";
  state.logRefusal("credentials refused over plaintext", { peer: from });
  return {
    code: Code.PermissionDenied,
    message: `credentials are not accepted over plaintext from ${from}: svc-mcu serves plain HTTP; start it with allowInsecureCreds to take them from the network`,
  };
}

function check(state: GateState, authorization: string | undefined, peer: string | undefined): Refusal | undefined {
  const current = keys(state);
  if ("code" in current) return current;
  if (!current.enabled) return undefined;
  if (!authorization) {
    return { code: Code.Unauthenticated, message: `authentication required: send "authorization: Bearer <token>" with a token from ${AUTHENTICATE_PATH.slice(1)}` };
  }
  const insecure = credentialsProblem(state, peer);
  if (insecure) return insecure;
  if (!authorization.startsWith(bearer)) return { code: Code.Unauthenticated, message: 'expected "authorization: Bearer <token>"' };
  const token = authorization.slice(bearer.length);
  const found = state.tokens.find(token);
  if (!found.ok) return { code: Code.Unauthenticated, message: `unauthenticated: ${found.problem}` };
  if (!current.holds(found.grant)) {
    state.tokens.drop(token);
    return { code: Code.Unauthenticated, message: `unauthenticated: API key ${JSON.stringify(shown(found.grant.keyId))} has been changed or removed; authenticate again` };
  }
  return undefined;
}

function authenticate(state: GateState, entity: string, credentials: { type?: string; payload?: string } | undefined): string {
  const current = keys(state);
  if ("code" in current) throw new SvcError(current.code, current.message);
  const type = credentials?.type ?? "";
  if (!current.enabled || type !== "api-key") {
    throw new SvcError(Code.InvalidArgument, `do not know how to handle credential type ${JSON.stringify(shown(type))}`);
  }
  const grant = current.check(entity, credentials?.payload ?? "");
  if (grant === undefined) {
    state.logRefusal("authentication failed: invalid credentials", { entity: shown(entity) });
    throw new SvcError(Code.PermissionDenied, "invalid credentials");
  }
  return state.tokens.issue(grant);
}
