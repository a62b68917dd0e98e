// Dialling svc-server with the official SDK the way a user does on a local network: a direct
// connection (no WebRTC, no reconnection), optionally with an API key. The caller disconnects,
// which also ends the SDK's 10 s heartbeat timer.
import * as VIAM from "@viamrobotics/sdk";

export interface ApiKey {
  id: string;
  key: string;
}

export async function dialSdk(host: string, apiKey?: ApiKey): Promise<VIAM.RobotClient> {
  const robot = new VIAM.RobotClient();
  await robot.dial({
    host,
    noReconnect: true,
    ...(apiKey ? { credentials: { type: "api-key" as const, payload: apiKey.key, authEntity: apiKey.id } } : {}),
  });
  return robot;
}

/** The server's error inside the SDK's "Failed to connect via all methods". */
export function sdkDialCause(error: unknown): unknown {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  return Array.isArray(cause) ? cause[0] : (cause ?? error);
}

/** `rdk:component:motor/left`, as the SDK's ResourceName reads. */
export function fullName(name: { namespace: string; type: string; subtype: string; name: string }): string {
  return `${name.namespace}:${name.type}:${name.subtype}/${name.name}`;
}
