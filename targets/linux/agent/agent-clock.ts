// The agent's two clocks. Its own durations (the start timeout, the update-check interval, the
// probations, restart and download backoff, the offline and hotspot delays) run on the agent
// clock, which SVC_AGENT_TIME_SCALE speeds up: 1 on a device; tests set e.g. 0.001 so that "10
// minutes" passes in 600 ms instead of sleeping minutes. What the world outside sets (a process's
// grace to exit, a readiness poll, a stalled download, a D-Bus call) and the times written in
// logs run on real time, scaled or not: a process does not exit faster because a test is in a
// hurry.
import { createScaledClock, type Clock, type ScaledClock } from "../../../core/index.js";
import { createNodeClock } from "../logging/node-clock.js";

export const TIME_SCALE_ENV = "SVC_AGENT_TIME_SCALE";

export interface AgentClocks {
  /** The agent's own durations, scaled by SVC_AGENT_TIME_SCALE. */
  agent: ScaledClock;
  /** Real time. */
  real: Clock;
}

/** The clocks the environment asks for; a scale that is not a positive number is an error naming it. */
export function agentClocksFromEnv(env: Record<string, string | undefined>, real: Clock = createNodeClock({ keepAlive: true })): AgentClocks {
  const text = env[TIME_SCALE_ENV];
  const factor = text === undefined || text === "" ? 1 : Number(text);
  if (!Number.isFinite(factor) || factor <= 0) throw new RangeError(`${TIME_SCALE_ENV} must be a positive number (found ${factor})`);
  return { agent: createScaledClock(real, factor), real };
}
