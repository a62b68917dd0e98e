// The agent moving itself to a new version. Before it restarts into the new version it writes the
// marker the unit's fallback script reads (`agent-update.json`: new version, previous, attempts).
// The new agent removes the marker once it has run healthy for the probation period; if it
// fails to come up, the fallback script points `current` back at the previous version and says
// so in the marker, and the previous agent, started again, marks the new version bad.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Clock, Logger } from "../../../../core/index.js";
import type { VersionStore } from "../releases/index.js";
import { writeFileAtomicSync } from "../../system/atomic-file.js";

export const AGENT_UPDATE_MARKER = "agent-update.json";

interface Marker {
  version: string;
  previous?: string;
  attempts?: number;
  rolled_back?: boolean;
}

export interface AgentSelfUpdateOptions {
  agents: VersionStore;
  stateDir: string;
  /** The version of the agent running now. */
  runningVersion: string;
  /** How long the new version must run before it counts as good, on `clock`. */
  probationMs: number;
  /** The agent clock. */
  clock: Clock;
  logger: Logger;
}

export interface AgentSelfUpdate {
  /** At start: marks a rolled-back version bad, or clears our own marker after the probation. */
  resumeAtStart(): Promise<void>;
  /** Activates an installed agent version; the caller then restarts into it. */
  activate(version: string): Promise<void>;
  close(): void;
}

export function createAgentSelfUpdate(options: AgentSelfUpdateOptions): AgentSelfUpdate {
  const { agents, clock, logger: log } = options;
  const markerPath = join(options.stateDir, AGENT_UPDATE_MARKER);
  // Cleared on close, so it holds nothing open.
  let timer: unknown;

  const readMarker = (): Marker | undefined => {
    try {
      const data = JSON.parse(readFileSync(markerPath, "utf8")) as Marker;
      return typeof data?.version === "string" ? data : undefined;
    } catch {
      return undefined;
    }
  };

  return {
    async resumeAtStart() {
      const marker = readMarker();
      if (!marker) return;
      if (marker.rolled_back) {
        const reason = `svc-agent ${marker.version} did not come up in ${marker.attempts ?? "several"} starts; the unit's fallback returned to ${marker.previous}`;
        await agents.markBad(marker.version, reason);
        log.error(`${reason}; ${marker.version} is marked bad and not tried again until a newer version appears`);
        rmSync(markerPath, { force: true });
        return;
      }
      if (marker.version !== options.runningVersion) return;
      timer = clock.setTimeout(() => {
        rmSync(markerPath, { force: true });
        log.info(`svc-agent ${marker.version} has run healthy; the update is complete`);
      }, options.probationMs);
    },
    async activate(version) {
      const previous = await agents.current();
      writeFileAtomicSync(markerPath, `${JSON.stringify({ version, previous: previous ?? "", attempts: 0 })}\n`);
      await agents.activate(version);
      log.info(`activated svc-agent ${version}${previous ? ` (was ${previous})` : ""}; restarting into it`);
    },
    close() {
      if (timer !== undefined) clock.clearTimeout(timer);
    },
  };
}
