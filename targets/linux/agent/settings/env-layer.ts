// The two top layers of the agent's settings: command-line flags (-d, -w) and SVC_AGENT_*
// environment variables, each turned into an `agent`-shaped layer.
//   SVC_AGENT_DEBUG=1             advanced_settings.debug
//   SVC_AGENT_WAIT_FOR_UPDATE=1   advanced_settings.wait_for_update_check
//   SVC_AGENT_FAST_START=1        wait_for_update_check false (wins over the one above)
//   SVC_AGENT_RELEASE_INDEX=URL   the release index URL
import { isIndexUrl } from "./defaults-file.js";

/** Flags given on the command line; absent ones leave the layers below alone. */
export interface FlagSettings {
  /** -d, --debug */
  debug?: boolean;
  /** -w, --wait */
  wait?: boolean;
}

export interface TopLayer {
  agent: Record<string, unknown> | undefined;
  releaseIndexUrl?: string;
  warnings: string[];
}

export function flagLayer(flags: FlagSettings): Record<string, unknown> | undefined {
  const advanced: Record<string, unknown> = {};
  if (flags.debug !== undefined) advanced.debug = flags.debug;
  if (flags.wait !== undefined) advanced.wait_for_update_check = flags.wait;
  return Object.keys(advanced).length > 0 ? { advanced_settings: advanced } : undefined;
}

export function envLayer(env: Record<string, string | undefined>): TopLayer {
  const warnings: string[] = [];
  const advanced: Record<string, unknown> = {};
  const bool = (name: string): boolean | undefined => {
    const text = env[name];
    if (text === undefined || text.trim() === "") return undefined;
    const value = parseBool(text);
    if (value === undefined) warnings.push(`environment: ${name}: must be 1, 0, true or false (found ${JSON.stringify(text)}; ignored)`);
    return value;
  };
  const debug = bool("SVC_AGENT_DEBUG");
  if (debug !== undefined) advanced.debug = debug;
  const wait = bool("SVC_AGENT_WAIT_FOR_UPDATE");
  if (wait !== undefined) advanced.wait_for_update_check = wait;
  if (bool("SVC_AGENT_FAST_START") === true) advanced.wait_for_update_check = false;

  let releaseIndexUrl: string | undefined;
  const index = env.SVC_AGENT_RELEASE_INDEX;
  if (index !== undefined && index !== "") {
    if (isIndexUrl(index)) releaseIndexUrl = index;
    else warnings.push("environment: SVC_AGENT_RELEASE_INDEX: must be an http, https or file URL (ignored)");
  }
  const agent = Object.keys(advanced).length > 0 ? { advanced_settings: advanced } : undefined;
  return { agent, releaseIndexUrl, warnings };
}

function parseBool(text: string): boolean | undefined {
  const word = text.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(word)) return true;
  if (["0", "false", "no", "off"].includes(word)) return false;
  return undefined;
}
