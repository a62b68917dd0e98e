// The MCU machine's side of authentication, so an auth section is enforced or its configuration
// refused, never ignored. The API keys in force are the running configuration's (see
// api-key-gate.ts). Keys on a host that cannot serve them (no secure random bytes for tokens, or
// plain HTTP the firmware takes no credentials over) refuse the whole configuration. A stored
// configuration that cannot be used while it may have asked for authentication leaves the
// machine refusing every caller rather than serving everyone, until the host gives it one it can
// use (on a device, by flashing).
import type { ConfigEvent, ConfigIssue, LoggerLike, MachineConfig } from "../../core/index.js";
import { createApiKeyGate, type ApiKeyGate, type ApiKeyGateSettings, type AuthState } from "./api-key-gate.js";

export interface ParsedConfig {
  config: MachineConfig | null;
  issues: ConfigIssue[];
}

export interface MachineAuthOptions {
  /** Milliseconds since the epoch. */
  now(): number;
  randomBytes?: (count: number) => Uint8Array;
  apiKeys?: ApiKeyGateSettings;
  logger?: LoggerLike;
}

export interface MachineAuth {
  readonly gate: ApiKeyGate;
  /** `parsed`, or no configuration with the reason first when it has keys this host cannot serve. */
  screen(parsed: ParsedConfig): ParsedConfig;
  /** Follows the machine's configuration: the keys of the one in force, or the lock a refused first one leaves. */
  follow(event: ConfigEvent): void;
  /** `proto.rpc.v1.AuthService`'s handlers, for the dispatcher. */
  service(): object;
}

const noAuth = { handlers: [] };

/**
 * Whether a configuration that could not be used may have asked for authentication: as written
 * it has an `auth` member, or it cannot even be read as a JSON object (what it asked is unknown).
 */
export function mayAskForAuth(written: unknown): boolean {
  return written === null || typeof written !== "object" || Array.isArray(written) || Object.prototype.hasOwnProperty.call(written, "auth");
}

export function createMachineAuth(options: MachineAuthOptions): MachineAuth {
  // Set while the machine refuses everyone: why, in the words every caller hears.
  let locked: string | undefined;
  let running: MachineConfig | undefined;
  const unavailable = options.randomBytes
    ? options.apiKeys?.unavailable
    : "this host gives no secure random bytes for access tokens, so API keys cannot be served: the firmware passes randomBytes to start the device";
  const current = (): AuthState => {
    if (locked !== undefined) return { locked };
    return { auth: running?.auth ?? noAuth, network: running?.network };
  };
  const gate = createApiKeyGate({ ...options.apiKeys, current, now: options.now, randomBytes: options.randomBytes, logger: options.logger });

  return {
    gate,
    screen(parsed) {
      if (unavailable === undefined || !parsed.config?.auth.handlers.some((handler) => handler.type === "api-key")) return parsed;
      return { config: null, issues: [{ path: "auth.handlers", message: unavailable, severity: "error" }, ...parsed.issues] };
    },
    follow(event) {
      running = event.running?.config;
      if (event.kind === "accepted") {
        locked = undefined;
      } else if (event.kind === "refused" && event.first && mayAskForAuth(event.written())) {
        locked = `the stored configuration asks for authentication and cannot be used, so every call is refused until a usable one is flashed: ${event.refusal.reason}`;
      }
    },
    service: () => ({
      authenticate: async (request: { entity: string; credentials?: { type: string; payload: string } }) => ({
        accessToken: gate.authenticate(request.entity, request.credentials),
      }),
    }),
  };
}
