// What the network controller needs from the captive portal, and what it gives it: the controller
// starts the portal on the hotspot's address when the hotspot comes up and stops it when it goes
// down; the portal reports a person's activity and hands over the network they chose.
import type { AccessPoint } from "../network-backend.js";

/** A network chosen on the portal or through the provisioning API. */
export interface NetworkSubmission {
  ssid: string;
  /** "" for an open network. */
  psk: string;
}

export type SubmissionResult = { ok: true } | { ok: false; error: string };

/** Everything one hotspot period's portal needs; given anew at each start. */
export interface PortalSession {
  /** The device's IPv4 address on the hotspot: where the portal and its DNS responder listen. */
  address: string;
  /** The wifi interface carrying the hotspot. */
  interface: string;
  /** The hotspot's SSID. */
  ssid: string;
  manufacturer: string;
  model: string;
  /** "" when none is configured. */
  fragmentId: string;
  /** `!disable_captive_portal_redirect`: every DNS name leads to the device, not only `*.setup`. */
  redirectAll: boolean;
  /** Why the last submitted network did not connect, to show when the portal comes back. */
  lastError: string | undefined;
  /** Visible wifi networks, strongest first. */
  scan(): Promise<AccessPoint[]>;
  /** Saves the network and tries it at once; resolves with whether it connected. */
  submit(choice: NetworkSubmission): Promise<SubmissionResult>;
  /** Called on every request: a person is using the portal, so the hotspot stays up. */
  onUserActivity(): void;
}

export interface PortalSeam {
  start(session: PortalSession): Promise<void>;
  /** Also called from inside a `submit` in progress: it must not wait for that request to end. */
  stop(): Promise<void>;
}
