// What the configuration tells the agent now: its settings (defaults, the configuration file's
// `agent` section, the environment and the flags, merged) and where the server answers. Read at
// start and again on each change of the file; every job reads it through here, so all of them
// see the same settings at any moment.
import { existsSync, readFileSync } from "node:fs";
import type { AgentConfig, Logger } from "../../../core/index.js";
import type { AgentPaths } from "./agent-paths.js";
import { cloudSectionsIn } from "./cloud/cloud-agent-section.js";
import { serverEndpointOf, type ServerEndpoint } from "./server/server-endpoint.js";
import { loadAgentSettings, type AgentSettings, type FlagSettings } from "./settings/index.js";

export interface AgentConfigViewOptions {
  paths: AgentPaths;
  configFile: string;
  defaultsFile: string;
  flagLayer: FlagSettings;
  env: Record<string, string | undefined>;
  logger: Logger;
}

export interface AgentConfigView {
  settings(): AgentSettings;
  agent(): AgentConfig;
  advanced(): AgentConfig["advanced_settings"];
  endpoint(): ServerEndpoint;
  /** Reads everything again; says whether what the update checks follow changed. */
  reload(): { updatesChanged: boolean };
}

export function createAgentConfigView(options: AgentConfigViewOptions): AgentConfigView {
  const load = (): AgentSettings =>
    loadAgentSettings({
      configFile: options.configFile,
      defaultsFile: options.defaultsFile,
      flagLayer: options.flagLayer,
      env: options.env,
      paths: options.paths,
      logger: options.logger,
    });
  // On a machine svc-cloud manages, the server's port and maintenance window are the cloud's.
  const readConfigText = () => {
    const text = existsSync(options.configFile) ? readFileSync(options.configFile, "utf8") : undefined;
    const cloud = text === undefined ? undefined : cloudSectionsIn(text, options.paths.stateDir);
    return cloud === undefined ? text : JSON.stringify({ network: cloud.network, maintenance: cloud.maintenance });
  };
  let settings = load();
  let endpoint = serverEndpointOf(readConfigText());

  return {
    settings: () => settings,
    agent: () => settings.agent,
    advanced: () => settings.agent.advanced_settings,
    endpoint: () => endpoint,
    reload() {
      const before = settings;
      settings = load();
      endpoint = serverEndpointOf(readConfigText());
      const versionsChanged = JSON.stringify(before.agent.version_control) !== JSON.stringify(settings.agent.version_control);
      return { updatesChanged: versionsChanged || before.releaseIndexUrl !== settings.releaseIndexUrl };
    },
  };
}
