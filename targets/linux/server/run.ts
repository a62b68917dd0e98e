// Running svc-server from its parsed command line: the one-off actions (-dump-resources,
// -network-check, --aix-install), or the server itself until a signal or the Shutdown call.
import { readConfigText } from "./config-watch/index.js";
import { createModelRegistry, readMachineConfig, type ConfigReading } from "../../../core/index.js";
import type { ParsedFlags } from "../cli/flags.js";
import { createLinuxLogging, LogFileError, type LinuxLogging } from "../logging/index.js";
import { registerLinuxModels } from "./linux-models.js";
import { dumpResources, formatNetworkChecks, runNetworkChecks, startCpuProfileFile, type CpuProfileFile } from "./diagnostics/index.js";
import { serve, type RunningServer } from "./serve.js";
import { createCommandRunner, handleShutdownSignals, installServerService, runningExecutable } from "./system/index.js";
import { formatIssue } from "./validate-command.js";
import simMachine from "../../../examples/sim-machine.json";
import { SVC_VERSION } from "../version.js";

// Subsystems that are not part of svc-server yet: a user who asks for one is told.
const notYetAvailable: Record<string, string> = {
  "disable-mdns": "multicast DNS discovery is not part of this version",
  "ftdc": "fulltime data capture is not part of this version",
  "webrtc": "WebRTC is not part of this version; clients connect directly",
};

const say = (line: string) => process.stderr.write(`svc-server: ${line}\n`);

interface ConfigSource {
  /** The one parse of the configuration: the start settings here, and the machine's first load. */
  reading: ConfigReading;
  origin: string;
  file?: string;
  /** The file's text as written (before `${NAME}` references were filled in). */
  written?: string;
}

function readConfig(flags: ParsedFlags): ConfigSource | undefined {
  const file = flags.values.config;
  if (typeof file !== "string") {
    return { reading: readMachineConfig(JSON.stringify(simMachine)), origin: "the built-in simulated machine (examples/sim-machine.json)" };
  }
  const read = readConfigText(file);
  if ("problem" in read) {
    say(`cannot use the configuration: ${read.problem}`);
    return undefined;
  }
  return { reading: readMachineConfig(read.text), origin: file, file, written: read.written };
}

export async function runServer(flags: ParsedFlags): Promise<number> {
  const { values, given } = flags;
  for (const [name, why] of Object.entries(notYetAvailable)) {
    if (given.has(name)) say(`-${name} ignored: ${why}`);
  }

  if (typeof values["dump-resources"] === "string") {
    const registry = createModelRegistry();
    registerLinuxModels(registry);
    try {
      const count = dumpResources(registry, values["dump-resources"]);
      say(`wrote ${count} registrations to ${values["dump-resources"]}`);
      return 0;
    } catch (e) {
      say((e as Error).message);
      return 1;
    }
  }
  if (values["aix-install"]) {
    try {
      const result = await installServerService({ executable: runningExecutable(), run: createCommandRunner() });
      say(JSON.stringify(result));
      return 0;
    } catch (e) {
      say(`--aix-install: ${(e as Error).message}`);
      return 1;
    }
  }

  const source = readConfig(flags);
  if (!source) return 1;
  const { reading } = source;
  if (values["network-check"]) {
    const result = await runNetworkChecks({ cloud: reading.config?.cloud });
    for (const line of formatNetworkChecks(result)) process.stdout.write(`${line}\n`);
    return result.exitCode;
  }
  if (!reading.config) {
    for (const issue of reading.issues) say(formatIssue(source.origin, issue));
    say(`${source.origin} cannot be used`);
    return 1;
  }

  let logging: LinuxLogging;
  try {
    logging = createLinuxLogging({
      logFile: typeof values["log-file"] === "string" ? values["log-file"] : undefined,
      debug: values.debug === true,
    });
  } catch (e) {
    if (!(e instanceof LogFileError)) throw e;
    say(`-log-file ${e.path}: ${e.message}`);
    return 1;
  }
  const profile: CpuProfileFile | undefined =
    typeof values.cpuprofile === "string" ? await startCpuProfileFile(values.cpuprofile) : undefined;
  let server: RunningServer | undefined;
  const signals = handleShutdownSignals({
    async onShutdown(reason) {
      logging.logger.info("shutting down", { reason });
      await server?.stop();
      await profile?.stop();
      logging.close();
    },
  });
  try {
    server = await serve({
      logEngine: logging.engine,
      version: SVC_VERSION,
      initial: { reading, config: reading.config, origin: source.origin, file: source.file, written: source.written },
      noTls: values["no-tls"] === true,
      allowInsecureCreds: values["allow-insecure-creds"] === true,
      untrustedEnv: values["untrusted-env"] === true,
      revealSecrets: values["reveal-sensitive-config-diffs"] === true,
      sharedDir: typeof values.shareddir === "string" ? values.shareddir : undefined,
      webProfile: values.webprofile === true,
      outputTelemetry: values["output-telemetry"] === true,
      requestShutdown: (reason) => signals.begin(reason),
    });
  } catch (e) {
    say(`cannot serve: ${(e as Error).message}`);
    signals.dispose();
    await profile?.stop();
    logging.close();
    return 1;
  }
  say(`serving ${server.listening}`);
  // The process now lives until a signal or the Shutdown call ends it through `signals`.
  return new Promise<number>(() => undefined);
}
