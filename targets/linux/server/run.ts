// Running svc-server. This version loads and checks the machine configuration and reports it;
// the API server and the resource runtime are not part of it yet, so it says so and exits
// rather than pretend to serve.
import { readFileSync } from "node:fs";
import { loggingSettingsOf, parseMachineConfig, type Logger, type MachineConfig } from "../../../core/index.js";
import type { ParsedFlags } from "../cli/flags.js";
import { createLinuxLogging } from "../logging/index.js";
import simMachine from "../../../examples/sim-machine.json";

// Options that change how the server runs, which this version cannot honour yet: a user who
// gives one is told, never silently ignored.
const notYetAvailable: Record<string, string> = {
  "allow-insecure-creds": "credentials are not accepted by this version",
  "cpuprofile": "CPU profiling is not available in this version",
  "disable-mdns": "multicast DNS discovery is not part of this version",
  "ftdc": "fulltime data capture is not part of this version",
  "no-tls": "this version serves nothing, with or without TLS",
  "output-telemetry": "telemetry is not available in this version",
  "reveal-sensitive-config-diffs": "config diffs are not printed by this version",
  "shareddir": "static assets are not served by this version",
  "untrusted-env": "this version starts no processes, so there is nothing to refuse",
  "webprofile": "the HTTP profiler is not available in this version",
  "webrtc": "WebRTC is not part of this version",
};

// Options that ask for a one-off action this version cannot perform: they fail clearly.
const actionsNotYetAvailable: Record<string, string> = {
  "dump-resources": "the resource registry is not part of this version",
  "network-check": "network checks are not part of this version",
  "aix-install": "installing as a system service is not part of this version",
};

export async function runServer(flags: ParsedFlags): Promise<number> {
  const say = (line: string) => process.stderr.write(`svc-server: ${line}\n`);
  for (const [name, why] of Object.entries(actionsNotYetAvailable)) {
    if (flags.given.has(name)) {
      say(`-${name}: ${why}`);
      return 1;
    }
  }
  for (const [name, why] of Object.entries(notYetAvailable)) {
    if (flags.given.has(name)) say(`-${name} ignored: ${why}`);
  }
  const logging = createLinuxLogging({
    logFile: typeof flags.values["log-file"] === "string" ? flags.values["log-file"] : undefined,
    debug: flags.values.debug === true,
  });
  try {
    return loadAndReport(flags, say, logging.logger.child("config"), (config) => logging.engine.configure(loggingSettingsOf(config)));
  } finally {
    logging.close();
  }
}

function loadAndReport(
  flags: ParsedFlags,
  say: (line: string) => void,
  log: Logger,
  applyLogging: (config: MachineConfig) => void,
): number {

  const file = flags.values.config;
  let source: string | object = simMachine;
  let label = "the built-in simulated machine (examples/sim-machine.json)";
  if (typeof file === "string") {
    try {
      source = readFileSync(file, "utf8");
      label = file;
    } catch (e) {
      say(`cannot read the configuration ${file}: ${(e as Error).message}`);
      return 1;
    }
  }

  const { config, issues } = parseMachineConfig(source);
  if (config) applyLogging(config);
  for (const issue of issues) {
    const fields = { file: label, path: issue.path };
    if (issue.severity === "error") log.error(issue.message, fields);
    else log.warn(issue.message, fields);
  }
  if (!config) {
    say(`${label} cannot be used`);
    return 1;
  }
  log.info("configuration loaded", {
    file: label,
    components: config.components.length,
    services: config.services.length,
    modules: config.modules.length,
    issues: issues.length,
  });
  say(
    `configuration ${label}: ${config.components.length} component(s), ${config.services.length} service(s), ` +
      `${config.modules.length} module(s), ${issues.length} issue(s)`,
  );
  say(`this version does not serve the API yet: nothing listens on ${config.network.bind_address}`);
  return 0;
}
