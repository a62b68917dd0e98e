// The systemd unit of svc-agent.
//
// Restart=always with StartLimitIntervalSec=0: the agent is what keeps a device reachable, so
// systemd never gives up restarting it. KillMode=mixed: on stop, SIGTERM goes to the agent alone,
// which stops svc-server in order (the server's own shutdown stops its modules); whatever is left
// when the stop timeout runs out is killed, children included, so no stray server outlives its
// agent. (KillMode=process would keep svc-server running across an agent restart, but the
// restarted agent would then find a server it did not start, holding the port, and the stop of
// the unit could leave a server nobody watches; a server restart on each agent update is the
// cheaper price.) TimeoutStopSec outlasts svc-server's own stop timeout (60 s in its unit), so a
// clean shutdown is never cut short.
//
// ExecStartPre runs the self-update fallback (see fallback-script.ts) before each start; the "-"
// keeps a failing fallback from blocking the agent.
import { systemdQuote } from "../../system/index.js";

export const AGENT_SERVICE_NAME = "svc-agent";
export const AGENT_UNIT_PATH = "/etc/systemd/system/svc-agent.service";
export const AGENT_EXECUTABLE = "/opt/svc/agent/current/svc-agent";
export const FALLBACK_SCRIPT_PATH = "/opt/svc/agent/fallback.sh";

export interface AgentUnitOptions {
  /** Default /opt/svc/agent/current/svc-agent. */
  executable?: string;
  /** Arguments after the executable (e.g. ["-c", "/etc/svc.json"]). Default none. */
  args?: readonly string[];
  /** Default /opt/svc/agent/fallback.sh. */
  fallbackScript?: string;
  /** Seconds between an exit and the restart. Default 5. */
  restartSec?: number;
  /** Seconds systemd waits after SIGTERM before SIGKILL. Default 90. */
  stopTimeoutSec?: number;
}

export function agentUnitText(options: AgentUnitOptions = {}): string {
  const exec = [options.executable ?? AGENT_EXECUTABLE, ...(options.args ?? [])].map(systemdQuote).join(" ");
  return [
    `# ${AGENT_SERVICE_NAME}: installs, runs and updates svc-server; written by \`svc-agent --install\`.`,
    "[Unit]",
    "Description=svc-agent service manager for svc-server",
    "After=network-online.target",
    "Wants=network-online.target",
    "StartLimitIntervalSec=0",
    "",
    "[Service]",
    "Type=simple",
    `ExecStartPre=-${systemdQuote(options.fallbackScript ?? FALLBACK_SCRIPT_PATH)}`,
    `ExecStart=${exec}`,
    "Restart=always",
    `RestartSec=${options.restartSec ?? 5}`,
    "KillMode=mixed",
    "KillSignal=SIGTERM",
    `TimeoutStopSec=${options.stopTimeoutSec ?? 90}`,
    "",
    "[Install]",
    "WantedBy=multi-user.target",
    "",
  ].join("\n");
}
