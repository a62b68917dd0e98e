// What svc-cloud holds for this machine that the agent acts on (its part config, fragments merged):
// the `agent` section, and the `network` and `maintenance` sections that say where svc-server
// answers and whether a maintenance window gates its updates. Kept in the agent's state folder as
// `cloud-agent.json`, so it stands offline and across restarts. For a cloud-managed machine it is
// the machine-config layer of the agent's settings and the server's endpoint, in place of the
// credentials file's own; svc-cloud's release index is where versions come from.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../system/atomic-file.js";

export const CLOUD_AGENT_FILE = "cloud-agent.json";
export const CLOUD_RELEASE_INDEX_PATH = "/releases/index.json";

export const cloudAgentFile = (stateDir: string) => join(stateDir, CLOUD_AGENT_FILE);

/** The sections of the part's config the agent keeps. */
export const KEPT_SECTIONS = ["agent", "network", "maintenance"] as const;

export type CloudSections = Partial<Record<(typeof KEPT_SECTIONS)[number], Record<string, unknown>>>;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The kept sections of a part's config. */
export function cloudSectionsOf(config: Record<string, unknown>): CloudSections {
  return Object.fromEntries(KEPT_SECTIONS.filter((key) => isRecord(config[key])).map((key) => [key, config[key]]));
}

/** The kept sections; undefined before svc-cloud first answered (or when the file is not one). */
export function readCloudSections(stateDir: string): CloudSections | undefined {
  try {
    const data = JSON.parse(readFileSync(cloudAgentFile(stateDir), "utf8")) as unknown;
    return isRecord(data) ? cloudSectionsOf(data) : undefined;
  } catch {
    return undefined;
  }
}

/** The kept `agent` section; undefined before svc-cloud first answered. */
export function readCloudAgentSection(stateDir: string): Record<string, unknown> | undefined {
  return readCloudSections(stateDir)?.agent;
}

/** Keeps the sections unless they are what is kept already; true when it wrote. */
export async function keepCloudSections(stateDir: string, sections: CloudSections): Promise<boolean> {
  const text = `${JSON.stringify(sections)}\n`;
  try {
    if (readFileSync(cloudAgentFile(stateDir), "utf8") === text) return false;
  } catch {
    // Not kept yet.
  }
  // Root's alone: the section holds Wi-Fi passwords.
  await writeFileAtomic(cloudAgentFile(stateDir), text, 0o600);
  return true;
}

/** svc-cloud's address when the credentials file names one (a cloud-managed machine). */
export function cloudAddressIn(config: Record<string, unknown>): string | undefined {
  const cloud = config.cloud as { app_address?: unknown; api_key?: unknown } | undefined;
  if (typeof cloud !== "object" || cloud === null || typeof cloud.api_key !== "object" || typeof cloud.app_address !== "string") return undefined;
  try {
    return new URL(cloud.app_address).origin;
  } catch {
    return undefined;
  }
}

/**
 * The kept sections when `configText` is a credentials file (before svc-cloud first answered,
 * the file's own network section), or undefined for a machine svc-cloud does not manage.
 */
export function cloudSectionsIn(configText: string, stateDir: string): CloudSections | undefined {
  let data: unknown;
  try {
    data = JSON.parse(configText);
  } catch {
    return undefined;
  }
  if (!isRecord(data) || cloudAddressIn(data) === undefined) return undefined;
  return readCloudSections(stateDir) ?? cloudSectionsOf({ network: data.network });
}
