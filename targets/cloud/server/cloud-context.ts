// What every part of svc-cloud's API is handed: the store, the clock, the token issuer, the
// sign-in limiter and where svc-cloud is reached. Built once at start-up; nothing in it changes
// per call.
import type { Clock } from "../../../core/index.js";
import type { LoginLimiter } from "../auth/login-limiter.js";
import type { TokenIssuer } from "../auth/token-issuer.js";
import type { LogBus } from "../fleet/log-bus.js";
import type { PartlessConfigs } from "../fleet/partless-configs.js";
import type { RevisionBus } from "../fleet/revision-bus.js";
import type { Store } from "../storage/open-store.js";

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
}
