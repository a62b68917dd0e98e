// Public face of the agent's settings: the layers merged, the manufacturer defaults file, the
// flag and environment layers, and the on-disk cache of the last good merge.
export { loadAgentSettings, DEFAULT_RELEASE_INDEX_URL, type AgentSettings, type LoadAgentSettingsOptions } from "./load-agent-settings.js";
export { readDefaultsFile, AGENT_ONLY_KEYS, type DefaultsFile } from "./defaults-file.js";
export { envLayer, flagLayer, type FlagSettings } from "./env-layer.js";
export { readSettingsCache, writeSettingsCache, settingsCachePath, SETTINGS_CACHE_FILE, type CachedSettings } from "./settings-cache.js";
