// Saving the machine's cloud credentials entered on the portal into the machine configuration
// file: `cloud.id` is the part id, `cloud.secret` the API key, and the same key is accepted from
// local clients (an `api-key` auth handler) - the shape tools/install.sh writes. Everything else
// in the file is kept; the file is replaced atomically and readable by root only.
import { existsSync, readFileSync } from "node:fs";
import type { MachineCredentials } from "./portal/provisioning-input.js";
import { writeFileAtomic } from "../atomic-file.js";

export function hasMachineCredentials(configFile: string): boolean {
  try {
    const config = JSON.parse(readFileSync(configFile, "utf8")) as { cloud?: { id?: unknown; secret?: unknown } };
    return typeof config.cloud?.id === "string" && config.cloud.id !== "" && typeof config.cloud.secret === "string";
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
  const cloud = { ...(config.cloud as object | undefined), id: credentials.partId, secret: credentials.apiKey };
  const auth = (config.auth as { handlers?: { type: string; config: Record<string, string> }[] } | undefined) ?? {};
  const handlers = (auth.handlers ?? []).filter((handler) => handler.type !== "api-key");
  const keys = (auth.handlers ?? []).find((handler) => handler.type === "api-key")?.config ?? {};
  handlers.push({ type: "api-key", config: { ...keys, [credentials.apiKeyId]: credentials.apiKey } });
  await writeFileAtomic(configFile, `${JSON.stringify({ ...config, cloud, auth: { ...auth, handlers } }, null, 2)}\n`, 0o600);
}
