// What the portal page and the provisioning API do, apart from HTTP: list networks (one scan
// shared by concurrent callers and reused for a few seconds), validate and hand on a network
// choice and machine credentials, and remember how the last attempt went.
import { errorMessage, type Logger } from "../../../../../core/index.js";
import { createNodeClock } from "../../../logging/node-clock.js";
import type { AccessPoint } from "../network-backend.js";
import {
  credentialsProblem,
  networkChoiceProblem,
  type InputProblem,
  type MachineCredentials,
  type NetworkChoice,
} from "./provisioning-input.js";

export type SubmitResult = { ok: true } | { ok: false; error: string };

/** "waiting" for input, "connecting" while `submit` runs, then "connected" or "failed". */
export type ProvisioningState = "waiting" | "connecting" | "connected" | "failed";

export type ActionOutcome =
  | { ok: true }
  /** 400: bad input; 409: an attempt is already running; 501: not supported; 502: the connection failed. */
  | { ok: false; status: 400 | 409 | 500 | 501 | 502; error: string; field?: InputProblem["field"] };

export interface ProvisioningStatus {
  state: ProvisioningState;
  needsCredentials: boolean;
  lastError: string | undefined;
}

export interface ProvisioningActionsOptions {
  scan(): Promise<AccessPoint[]>;
  submit(request: NetworkChoice): Promise<SubmitResult>;
  saveCredentials?(credentials: MachineCredentials): Promise<void>;
  needsCredentials: boolean;
  /** Why the last attempt failed, when the portal comes back after one. */
  lastError?: string;
  logger: Logger;
  /** How long a scan result is reused. Default 10 s. */
  scanMaxAgeMs?: number;
  /** Real time. Default: the Node clock's. */
  now?: () => number;
}

export interface ProvisioningActions {
  status(): ProvisioningStatus;
  networks(): Promise<AccessPoint[]>;
  /** Validates everything first, then saves the credentials (if given), then submits the network. */
  provision(network: NetworkChoice, credentials: MachineCredentials | undefined, credentialsRequired: boolean): Promise<ActionOutcome>;
  saveCredentials(credentials: MachineCredentials): Promise<ActionOutcome>;
  /** Records a failure found outside a request (e.g. the chosen network failed after the hotspot closed). */
  reportError(message: string | undefined): void;
}

export function createProvisioningActions(options: ProvisioningActionsOptions): ProvisioningActions {
  const { logger } = options;
  const maxAge = options.scanMaxAgeMs ?? 10_000;
  const now = options.now ?? createNodeClock().now;
  let lastError = options.lastError || undefined;
  let state: ProvisioningState = lastError ? "failed" : "waiting";
  let needsCredentials = options.needsCredentials;
  let lastScan: { at: number; networks: AccessPoint[] } | undefined;
  let scanning: Promise<AccessPoint[]> | undefined;

  async function scanNow(): Promise<AccessPoint[]> {
    try {
      const networks = await options.scan();
      lastScan = { at: now(), networks };
      return networks;
    } catch (err) {
      logger.warn("wifi scan failed", { error: String(err) });
      return lastScan?.networks ?? [];
    } finally {
      scanning = undefined;
    }
  }

  function networks(): Promise<AccessPoint[]> {
    if (lastScan && now() - lastScan.at < maxAge) return Promise.resolve(lastScan.networks);
    scanning ??= scanNow();
    return scanning;
  }

  async function storeCredentials(credentials: MachineCredentials): Promise<ActionOutcome> {
    if (!options.saveCredentials) {
      return { ok: false, status: 501, error: "this device does not take machine credentials here" };
    }
    try {
      await options.saveCredentials(credentials);
    } catch (err) {
      const error = `the machine credentials could not be saved: ${errorMessage(err)}`;
      logger.error(error);
      lastError = error;
      return { ok: false, status: 500, error };
    }
    needsCredentials = false;
    logger.info("machine credentials saved", { part_id: credentials.partId });
    return { ok: true };
  }

  function rejected(problem: InputProblem): ActionOutcome {
    return { ok: false, status: 400, error: problem.error, field: problem.field };
  }

  return {
    status: () => ({ state, needsCredentials, lastError }),
    networks,

    async provision(network, credentials, credentialsRequired) {
      if (state === "connecting") return { ok: false, status: 409, error: "a connection attempt is already running" };
      const visible = lastScan?.networks ?? (await networks());
      const networkProblem = networkChoiceProblem(network, visible);
      if (networkProblem) return rejected(networkProblem);
      if (credentials) {
        const problem = credentialsProblem(credentials);
        if (problem) return rejected(problem);
      } else if (credentialsRequired && needsCredentials) {
        return rejected({ field: "part_id", error: "Enter the part ID." });
      }
      state = "connecting";
      try {
        if (credentials) {
          const saved = await storeCredentials(credentials);
          if (!saved.ok) {
            state = "failed";
            return saved;
          }
        }
        logger.info("connecting to the network chosen on the portal", { ssid: network.ssid });
        let result: SubmitResult;
        try {
          result = await options.submit(network);
        } catch (err) {
          result = { ok: false, error: errorMessage(err) };
        }
        if (result.ok) {
          state = "connected";
          lastError = undefined;
          return { ok: true };
        }
        state = "failed";
        lastError = result.error;
        logger.warn("the network chosen on the portal did not connect", { ssid: network.ssid, error: result.error });
        return { ok: false, status: 502, error: result.error };
      } finally {
        if (state === "connecting") state = "failed";
      }
    },

    async saveCredentials(credentials) {
      const problem = credentialsProblem(credentials);
      if (problem) return rejected(problem);
      return storeCredentials(credentials);
    },

    reportError(message) {
      lastError = message;
      if (message !== undefined) state = "failed";
    },
  };
}
