// Saving the machine's cloud credentials entered on the portal into the credentials file, in the
// shape svc-cloud writes it: `cloud.id` the part id, `cloud.api_key` {id, key}, and svc-cloud's
// address when the app gave it (`cloud.app_address`). Whatever else the file holds is kept (its
// `app_address` when none is given, and the settings svc-server runs before it first hears from
// the cloud); the file is replaced atomically and readable by root only.
import { existsSync, readFileSync } from "node:fs";
import type { MachineCredentials } from "./portal/provisioning-input.js";
import { writeFileAtomic } from "../../system/atomic-file.js";

interface CloudSection {
  id?: unknown;
  secret?: unknown;
  api_key?: { id?: unknown; key?: unknown };
}

const filled = (value: unknown) => typeof value === "string" && value !== "";

export function hasMachineCredentials(configFile: string): boolean {
  try {
    const cloud = (JSON.parse(readFileSync(configFile, "utf8")) as { cloud?: CloudSection }).cloud;
    return filled(cloud?.id) && (filled(cloud?.api_key?.id) && filled(cloud?.api_key?.key) || filled(cloud?.secret));
  } catch {
    return false;
  }
}

export async function saveMachineCredentials(configFile: string, credentials: MachineCredentials): Promise<void> {
  let config: Record<string, unknown> = {};
  if (existsSync(configFile)) {
    try {
      const parsed = JSON.parse(readFileSync(configFile, "utf8")) as unknown;
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) config = parsed as Record<string, unknown>;
    } catch (error) {
      throw new Error(`${configFile} is not valid JSON (${(error as Error).message}); not overwriting it`);
    }
  }
  // An older robot secret goes: the key replaces it.
  const { secret: _secret, ...before } = (config.cloud as Record<string, unknown> | undefined) ?? {};
  const address = credentials.appAddress ? { app_address: new URL(credentials.appAddress).origin } : {};
  const cloud = { app_address: "", ...before, ...address, id: credentials.partId, api_key: { id: credentials.apiKeyId, key: credentials.apiKey } };
  await writeFileAtomic(configFile, `${JSON.stringify({ ...config, cloud }, null, 2)}\n`, 0o600);
}
