// The systemd unit of svc-server. Restart=always keeps the machine running through crashes and
// clean exits alike. KillMode=mixed sends SIGTERM to the server alone, which then stops its
// resources and module processes in dependency order; only what is left when the stop timeout
// runs out is killed, children included. The stop timeout outlasts the server's own shutdown
// deadline, so systemd never cuts a clean shutdown short.
import { systemdQuote } from "../../system/index.js";

export const SERVICE_NAME = "svc-server";

export interface ServerUnitOptions {
  /** Absolute path of the installed executable. */
  executable: string;
  /** Default /etc/svc.json. */
  configPath?: string;
  /** Seconds systemd waits after SIGTERM before SIGKILL. Default 60. */
  stopTimeoutSec?: number;
}

export function serverUnitText(options: ServerUnitOptions): string {
  const exec = [options.executable, "-config", options.configPath ?? "/etc/svc.json"].map(systemdQuote).join(" ");
  return [
    `# ${SERVICE_NAME}: the machine runtime, installed by \`svc-server --aix-install\`.`,
    "[Unit]",
    "Description=svc-server machine runtime",
    "After=network-online.target",
    "Wants=network-online.target",
    "StartLimitIntervalSec=0",
    "",
    "[Service]",
    "Type=simple",
    `ExecStart=${exec}`,
    "Restart=always",
    "RestartSec=5",
    "KillMode=mixed",
    "KillSignal=SIGTERM",
    `TimeoutStopSec=${options.stopTimeoutSec ?? 60}`,
    "LimitNOFILE=65536",
    "",
    "[Install]",
    "WantedBy=multi-user.target",
    "",
  ].join("\n");
}
