// The last settings read from the files (manufacturer defaults and machine configuration,
// merged), kept in the state directory so that a machine configuration that cannot be read or
// parsed at start-up does not throw the device back to built-in defaults. Written only when it
// changes (flash wears), atomically (a crash leaves the old file or the new, never half), and
// readable by root alone: it holds network passkeys.
import { readFileSync } from "node:fs";
import { writeFileAtomicSync } from "../../system/atomic-file.js";
import { join } from "node:path";
import type { AgentConfig } from "../../../../core/index.js";

export const SETTINGS_CACHE_FILE = "agent-settings.json";

export interface CachedSettings {
  agent: AgentConfig;
  release_index_url?: string;
  /** The sources it was merged from, to say so when it is used. */
  sources: string[];
}

export function settingsCachePath(stateDir: string): string {
  return join(stateDir, SETTINGS_CACHE_FILE);
}

/** The cached settings, or why there are none usable. */
export function readSettingsCache(stateDir: string): CachedSettings | { problem: string } {
  const path = settingsCachePath(stateDir);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { problem: code === "ENOENT" ? `there is no ${path} yet` : `${path} cannot be read (${code})` };
  }
  try {
    const data = JSON.parse(text) as CachedSettings;
    if (typeof data === "object" && data !== null && typeof data.agent === "object" && data.agent !== null) {
      return { agent: data.agent, release_index_url: data.release_index_url, sources: Array.isArray(data.sources) ? data.sources : [] };
    }
  } catch {
    // Said below.
  }
  return { problem: `${path} is not a settings cache` };
}

/** Writes the cache when it differs from what is there; true when it wrote. */
export function writeSettingsCache(stateDir: string, settings: CachedSettings): boolean {
  const path = settingsCachePath(stateDir);
  const text = `${JSON.stringify(settings, null, 2)}\n`;
  try {
    if (readFileSync(path, "utf8") === text) return false;
  } catch {
    // Not there yet.
  }
  writeFileAtomicSync(path, text, 0o600);
  return true;
}
