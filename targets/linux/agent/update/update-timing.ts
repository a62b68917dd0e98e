// How often and how long the agent's updates wait, on the agent clock (SVC_AGENT_TIME_SCALE).

/** How often the release index is read. */
export const UPDATE_CHECK_INTERVAL_MINUTES = 5;
/** While an update waits for the maintenance window, how often the server is asked. */
export const MAINTENANCE_POLL_MS = 10_000;
/** How long a new version (server or agent) must run before it counts as good. */
export const PROBATION_MINUTES = 5;
/** Exits within the probation that roll a new server version back. */
export const PROBATION_MAX_CRASHES = 3;
/** An artifact that did not match its index entry is downloaded again after this long, doubling up to the cap. */
export const DOWNLOAD_RETRY_MINUTES = { initial: 5, max: 24 * 60 };
/** While the agent waits for its first update check before starting the server, how often it tries. */
export const FIRST_CHECK_RETRY_MS = 5_000;

export const MINUTE_MS = 60_000;
