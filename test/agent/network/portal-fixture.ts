// Starts a provisioning portal on loopback with a fake scan and a scripted submit, and records
// what the portal handed on, for the portal's API and browser tests.
import { createCollectingSink, createLogEngine, type LogEntry } from "../../../core/index.js";
import { createNodeClock } from "../../../targets/linux/logging/index.js";
import type { AccessPoint } from "../../../targets/linux/agent/network/network-backend.js";
import {
  createProvisioningPortal,
  type MachineCredentials,
  type NetworkChoice,
  type ProvisioningPortalOptions,
  type SubmitResult,
} from "../../../targets/linux/agent/network/portal/index.js";

export const VISIBLE_NETWORKS: AccessPoint[] = [
  { ssid: "Home Net", strength: 82, security: "wpa-psk", frequencyMhz: 5180, interface: "wlan0" },
  { ssid: "Café <Libre>", strength: 55, security: "open", frequencyMhz: 2437, interface: "wlan0" },
  { ssid: "Office", strength: 30, security: "wpa-eap", frequencyMhz: 2412, interface: "wlan0" },
  { ssid: "Neighbour", strength: 12, security: "sae", frequencyMhz: 2462, interface: "wlan0" },
];

export interface PortalFixture {
  url: string;
  httpPort: number;
  dnsPort: number;
  submitted: NetworkChoice[];
  savedCredentials: MachineCredentials[];
  activity: { count: number };
  logs: LogEntry[];
  /** What the next submits answer; the default is success. */
  submitAnswers: SubmitResult[];
  stop(): Promise<void>;
}

export async function startPortalFixture(overrides: Partial<ProvisioningPortalOptions> = {}): Promise<PortalFixture> {
  const sink = createCollectingSink();
  const logger = createLogEngine({ clock: createNodeClock(), sink }).logger("agent.provisioning.portal");
  const submitted: NetworkChoice[] = [];
  const savedCredentials: MachineCredentials[] = [];
  const activity = { count: 0 };
  const submitAnswers: SubmitResult[] = [];
  const portal = createProvisioningPortal({
    host: "127.0.0.1",
    httpPort: 0,
    dnsPort: 0,
    manufacturer: "Acme Robotics",
    model: "Rover 3",
    fragmentId: "",
    redirectAll: true,
    needsCredentials: false,
    scan: async () => VISIBLE_NETWORKS,
    async submit(request) {
      submitted.push(request);
      return submitAnswers.shift() ?? { ok: true };
    },
    async saveCredentials(credentials) {
      savedCredentials.push(credentials);
    },
    onUserActivity: () => {
      activity.count++;
    },
    logger,
    ...overrides,
  });
  const { httpPort, dnsPort } = await portal.start();
  return {
    url: `http://127.0.0.1:${httpPort}`,
    httpPort,
    dnsPort,
    submitted,
    savedCredentials,
    activity,
    logs: sink.entries,
    submitAnswers,
    stop: () => portal.stop(),
  };
}
