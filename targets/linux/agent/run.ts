// Starting svc-agent. This version reads its options and the machine configuration and says
// how it would start; installing, running and updating svc-server are not part of it yet, so it
// says so and exits rather than pretend to manage anything.
import { existsSync, readFileSync } from "node:fs";
import { parseMachineConfig } from "../../../core/index.js";
import type { ParsedFlags } from "../cli/flags.js";

export async function runAgent(flags: ParsedFlags, env: Record<string, string | undefined>): Promise<number> {
  const say = (line: string) => process.stderr.write(`svc-agent: ${line}\n`);
  const { values } = flags;

  if (values.install) {
    say("--install: installing the systemd service is not part of this version");
    return 1;
  }
  if (process.getuid?.() !== 0 && !values["dev-mode"]) {
    say("must run as root (or with --dev-mode / SVC_AGENT_DEVMODE=1)");
    return 1;
  }

  const configFile = String(values.config);
  let waitForUpdate = values.wait === true;
  if (existsSync(configFile)) {
    const { config, issues } = parseMachineConfig(readFileSync(configFile, "utf8"));
    for (const issue of issues) say(`${configFile}: ${issue.path || "(file)"}: ${issue.message}`);
    if (config && !flags.given.has("wait")) {
      waitForUpdate = config.agent.advanced_settings.wait_for_update_check;
    }
  } else {
    say(`${configFile} does not exist; using built-in defaults`);
  }
  const defaultsFile = String(values.defaults);
  if (existsSync(defaultsFile)) {
    try {
      JSON.parse(readFileSync(defaultsFile, "utf8"));
    } catch (e) {
      say(`${defaultsFile}: not valid JSON: ${(e as Error).message}`);
    }
  }
  // SVC_AGENT_FAST_START=1 means: start the server first, check for updates afterwards.
  if (env.SVC_AGENT_FAST_START === "1") waitForUpdate = false;
  say(`start mode: ${waitForUpdate ? "wait for the network and an update check first" : "start svc-server at once"}`);
  if (values.debug) say("debug logging on");
  say("running and updating svc-server is not part of this version; exiting");
  return 1;
}
