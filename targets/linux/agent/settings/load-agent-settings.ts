// The agent's settings, from every layer: built-in defaults, the manufacturer defaults file, the
// machine configuration's `agent` section (svc-cloud's, for a machine it manages), command-line
// flags, SVC_AGENT_* variables (later wins,
// key by key; see core/agent mergeAgentLayers for clamping and rejected values). The files'
// merge is cached in the state directory and stands in for them when the machine configuration
// cannot be read or parsed. Warnings name where a value came from; secrets never reach the log.
import { readFileSync } from "node:fs";
import { agentConfigAsLayer, mergeAgentLayers, type AgentConfig, type AgentLayer, type Logger } from "../../../../core/index.js";
import type { AgentPaths } from "../agent-paths.js";
import { cloudAddressIn, CLOUD_RELEASE_INDEX_PATH, readCloudAgentSection } from "../cloud/cloud-agent-section.js";
import { parseJsonObject, readDefaultsFile } from "./defaults-file.js";
import { envLayer, flagLayer, type FlagSettings } from "./env-layer.js";
import { readSettingsCache, settingsCachePath, writeSettingsCache } from "./settings-cache.js";

export const DEFAULT_RELEASE_INDEX_URL = "https://packages.svc.dev/index.json";

export interface LoadAgentSettingsOptions {
  /** -c: the machine configuration (credentials) file. */
  configFile: string;
  /** --defaults: the manufacturer defaults file. */
  defaultsFile: string;
  /** Flags given on the command line. */
  flagLayer?: FlagSettings;
  env?: Record<string, string | undefined>;
  paths: Pick<AgentPaths, "stateDir">;
  logger?: Logger;
}

export interface AgentSettings {
  agent: AgentConfig;
  releaseIndexUrl: string;
  /** Every warning, also logged. */
  warnings: string[];
  /** The layers the settings came from, lowest first. */
  sources: string[];
}

export function loadAgentSettings(options: LoadAgentSettingsOptions): AgentSettings {
  const { logger } = options;
  const warnings: string[] = [];
  const defaults = readDefaultsFile(options.defaultsFile);
  warnings.push(...defaults.warnings);

  const fileLayers: AgentLayer[] = [];
  const sources = ["built-in defaults"];
  if (defaults.agent !== undefined) {
    fileLayers.push({ source: `manufacturer defaults ${options.defaultsFile}`, agent: defaults.agent });
  }
  const config = readConfigAgentSection(options.configFile, options.paths.stateDir);
  let base: { agent: AgentConfig; releaseIndexUrl?: string; sources: string[] };
  if ("agent" in config) {
    fileLayers.push({ source: config.source, agent: config.agent });
    const merged = mergeAgentLayers(fileLayers);
    warnings.push(...merged.warnings);
    base = { agent: merged.agent, releaseIndexUrl: config.releaseIndexUrl ?? defaults.releaseIndexUrl, sources: fileLayers.map((l) => l.source) };
    try {
      const cache = { agent: merged.agent, release_index_url: base.releaseIndexUrl, sources: base.sources };
      if (writeSettingsCache(options.paths.stateDir, cache)) logger?.debug("settings cached", { file: settingsCachePath(options.paths.stateDir) });
    } catch (error) {
      warnings.push(`cannot write ${settingsCachePath(options.paths.stateDir)} (${(error as Error).message})`);
    }
  } else {
    base = fallback(config.problem, fileLayers, defaults.releaseIndexUrl, options, warnings);
  }
  sources.push(...base.sources);

  const flags = flagLayer(options.flagLayer ?? {});
  const env = envLayer(options.env ?? {});
  warnings.push(...env.warnings);
  const top = mergeAgentLayers([
    { source: base.sources.join(" + ") || "built-in defaults", agent: agentConfigAsLayer(base.agent) },
    { source: "flags", agent: flags },
    { source: "environment", agent: env.agent },
  ]);
  warnings.push(...top.warnings);
  if (flags) sources.push("flags");
  if (env.agent || env.releaseIndexUrl) sources.push("environment");

  for (const warning of warnings) logger?.warn(warning);
  return {
    agent: top.agent,
    releaseIndexUrl: env.releaseIndexUrl ?? base.releaseIndexUrl ?? DEFAULT_RELEASE_INDEX_URL,
    warnings,
    sources,
  };
}

// The machine configuration is unusable: the cached merge stands in for the files; without one,
// the defaults file alone.
function fallback(
  problem: string,
  fileLayers: AgentLayer[],
  releaseIndexUrl: string | undefined,
  options: LoadAgentSettingsOptions,
  warnings: string[],
): { agent: AgentConfig; releaseIndexUrl?: string; sources: string[] } {
  const cached = readSettingsCache(options.paths.stateDir);
  const cachePath = settingsCachePath(options.paths.stateDir);
  if ("agent" in cached) {
    warnings.push(`${options.configFile}: ${problem}; using the settings cached in ${cachePath}`);
    // A cache written by another version may lack keys or hold values this one rejects:
    // merged like any layer, over the built-in defaults.
    const merged = mergeAgentLayers([{ source: `cached settings ${cachePath}`, agent: agentConfigAsLayer(cached.agent) }]);
    warnings.push(...merged.warnings);
    return { agent: merged.agent, releaseIndexUrl: cached.release_index_url, sources: [`cached settings ${cachePath}`] };
  }
  warnings.push(`${options.configFile}: ${problem}, and ${cached.problem}; using defaults`);
  const merged = mergeAgentLayers(fileLayers);
  warnings.push(...merged.warnings);
  return { agent: merged.agent, releaseIndexUrl, sources: fileLayers.map((l) => l.source) };
}

/**
 * The raw `agent` section of the machine configuration (undefined when it has none). For a
 * cloud-managed machine (a credentials file) it is the section svc-cloud holds, as last fetched,
 * and the versions come from svc-cloud's release index.
 */
function readConfigAgentSection(path: string, stateDir: string): { agent: unknown; source: string; releaseIndexUrl?: string } | { problem: string } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { problem: code === "ENOENT" ? "does not exist" : `cannot be read (${code ?? (error as Error).message})` };
  }
  const data = parseJsonObject(text);
  if ("problem" in data) return data;
  const cloud = cloudAddressIn(data.value);
  if (cloud !== undefined) {
    return { agent: readCloudAgentSection(stateDir), source: `svc-cloud ${cloud} (as last fetched)`, releaseIndexUrl: `${cloud}${CLOUD_RELEASE_INDEX_PATH}` };
  }
  return { agent: data.value.agent, source: `machine config ${path}` };
}
