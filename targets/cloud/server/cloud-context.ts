// What every part of svc-cloud's API is handed: the store, the clock, the token issuer, the
// sign-in limiter, the buses and the signaling relay, where svc-cloud is reached and the ICE
// servers it hands out. Built once at start-up; what it is never changes per call.
import type { Clock } from "../../../core/index.js";
import type { LoginLimiter } from "../auth/login-limiter.js";
import type { TokenIssuer } from "../auth/token-issuer.js";
import type { LogBus } from "../fleet/log-bus.js";
import type { IceServer } from "../fleet/ice-servers.js";
import type { PartlessConfigs } from "../fleet/partless-configs.js";
import type { RevisionBus } from "../fleet/revision-bus.js";
import type { Signaling } from "../fleet/signaling.js";
import type { Store } from "../storage/open-store.js";
import type { AddressLog } from "./address-log.js";

export interface CloudContext {
  store: Store;
  clock: Clock;
  issuer: TokenIssuer;
  limiter: LoginLimiter;
  /** New revisions of parts' configs, as they are made. */
  revisions: RevisionBus;
  /** Machines' new log entries, as they are stored (for the tails). */
  logs: LogBus;
  /** Merged and converted configs that parts with the same config and fragments share. */
  partlessConfigs: PartlessConfigs;
  /** The address machines and people use to reach svc-cloud (`--public-url`). */
  publicUrl: string;
  /** The data folder (`--data`): the store and what svc-cloud keeps beside it. */
  dataDir: string;
  /** The machines answering WebRTC calls here, and the calls being set up with them. */
  signaling: Signaling;
  /** The ICE servers callers and machines are told to use (`--ice-server`). */
  iceServers: readonly IceServer[];
  /** Lines about what a caller or machine did, bounded per address. */
  addressLog: AddressLog;
}
