// A configuration file that becomes a credentials file while svc-server runs on it (the
// provisioning portal saved the machine's credentials into it): svc-server restarts, and the next
// start follows svc-cloud. What asks for it is the file's configuration taken with a `cloud`
// section; one refused for its cloud section's errors changes nothing, and says so as any refusal.
import type { ConfigListener, LoggerLike } from "../../../core/index.js";

export function restartOnCredentials(log: LoggerLike, restart: (reason: string) => void): ConfigListener {
  let asked = false;
  return (event) => {
    if (asked || event.kind !== "accepted" || event.running.config.cloud === undefined) return;
    asked = true;
    log.info("the configuration file is now a machine's credentials file; restarting to follow svc-cloud", { part: event.running.config.cloud.id });
    restart("the configuration file became a credentials file");
  };
}
