// The agent's own logging: JSON lines on stdout (under systemd that is the journal, readable with
// `journalctl -u svc-agent`), and every entry also into the offline log queue in
// <stateDir>/log-queue, which holds them while the device is offline and hands them to the cloud
// uploader later. Debug with -d or advanced_settings.debug.
import { join } from "node:path";
import type { Logger } from "../../../core/index.js";
import { createLinuxLogging, openOfflineLogQueue, type LinuxLoggingOptions, type OfflineLogQueue } from "../logging/index.js";

export const AGENT_LOGGER = "svc-agent";

export interface AgentLoggingOptions {
  stateDir: string;
  /** -d: debug from the start, whatever the settings say. */
  debug?: boolean;
  /** Passed to createLinuxLogging (stdout, clock, pretty) for tests. */
  output?: Pick<LinuxLoggingOptions, "stdout" | "stderr" | "clock" | "pretty">;
  /** Bounds of the queue; see openOfflineLogQueue. */
  queue?: { maxBytes?: number; maxEntries?: number };
}

export interface AgentLogging {
  logger: Logger;
  queue: OfflineLogQueue;
  /** advanced_settings.debug, applied once the settings are read and whenever they change. */
  setDebug(debug: boolean): void;
  close(): void;
}

export function createAgentLogging(options: AgentLoggingOptions): AgentLogging {
  const queue = openOfflineLogQueue({ dir: join(options.stateDir, "log-queue"), ...options.queue });
  const logging = createLinuxLogging({ ...options.output, debug: options.debug, alsoTo: queue });
  return {
    logger: logging.engine.logger(AGENT_LOGGER),
    queue,
    setDebug: (debug) => {
      logging.engine.configure({ debug });
    },
    close() {
      logging.close();
      queue.close();
    },
  };
}
