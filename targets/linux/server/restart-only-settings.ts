// The port, its TLS files and the message limit are read once, when svc-server starts: an edit
// that changes them is taken for everything else, and the log says (once per edit) that these
// wait for a restart. Judged when the load is over, so an edit put back because it failed part
// way says nothing.
import type { ConfigListener, LoggerLike, MachineConfig, RunningConfig } from "../../../core/index.js";

const restartOnly = ["bind_address", "tls_cert_file", "tls_key_file", "no_tls", "max_message_bytes"] as const;

/** Warns when a load replaced the configuration with one that changes a setting read only at start. */
export function restartOnlySettingsWarning(log: LoggerLike, start: MachineConfig): ConfigListener {
  let before: RunningConfig | undefined;
  return (event) => {
    if (event.kind === "loading") before = event.running;
    if (event.kind !== "loaded" || !before || !event.running || event.running === before) return;
    const was = before.config.network;
    const now = event.running.config.network;
    for (const key of restartOnly) {
      if (was[key] !== now[key] && start.network[key] !== now[key]) {
        log.warn(`network.${key} changed; it takes effect when svc-server restarts`, { key });
      }
    }
  };
}
