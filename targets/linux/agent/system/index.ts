// Public face of the agent's system integration: --install (the unit and the self-update
// fallback), system_configuration (journald, automatic OS upgrades), the journal forwarder, and
// which system commands run at all (none under a root prefix).
export { agentUnitText, AGENT_SERVICE_NAME, AGENT_UNIT_PATH, AGENT_EXECUTABLE, FALLBACK_SCRIPT_PATH, type AgentUnitOptions } from "./agent-unit.js";
export { FALLBACK_SCRIPT, FALLBACK_MAX_ATTEMPTS } from "./fallback-script.js";
export { InstallError } from "../../system/index.js";
export { installAgentService, type InstallAgentOptions, type InstallAgentResult } from "./install-agent.js";
export { applyJournaldLimits, journaldDropInText, JOURNALD_DROP_IN, type JournaldLimits } from "./journald.js";
export { applyAutoUpgrades, autoUpgradesText, unattendedUpgradesText, AUTO_UPGRADES_FILE, UNATTENDED_UPGRADES_FILE, type AutoUpgradeType, type UpgradesResult } from "./unattended-upgrades.js";
export { readAptSources, parseOneLineSources, parseDeb822Sources, type AptSource } from "./apt-sources.js";
export { createJournalForwarder, identifierFilter, levelOfPriority, type JournalForwarder, type JournalForwarderOptions } from "./journal-forwarder.js";
export { applySystemConfiguration, type ApplySystemOptions, type SystemChanges } from "./system-configuration.js";
export { createSystemCommandRunner, notRunMessage, type SystemCommandRunnerOptions } from "./system-command-runner.js";
