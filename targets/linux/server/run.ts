// Running svc-server from its parsed command line: the one-off actions (-dump-resources,
// -network-check, --aix-install), or the server itself until a signal or the Shutdown call; from
// a configuration file, or, when the file holds cloud credentials, from svc-cloud.
import { readConfigText } from "./config-watch/index.js";
import { createModelRegistry, readMachineConfig, type ConfigReading } from "../../../core/index.js";
import type { ParsedFlags } from "../cli/flags.js";
import { createLinuxLogging, LogFileError, type LinuxLogging } from "../logging/index.js";
import { registerLinuxModels } from "./linux-models.js";
import { dumpResources, formatNetworkChecks, runNetworkChecks, startCpuProfileFile, type CpuProfileFile } from "./diagnostics/index.js";
import { serve, type RunningServer, type ServeOptions } from "./serve.js";
import { bootCertificate, bootConfig, createCertificateCache, createConfigCache, firstBootConfig, prepareCloudStart, RESTART_EXIT_CODE, type CloudStart } from "./cloud/index.js";
import { createCommandRunner, handleShutdownSignals, installServerService, runningExecutable } from "./system/index.js";
import { formatIssue } from "./validate-command.js";
import { defaultFtdcDir } from "./ftdc/index.js";
import simMachine from "../../../examples/sim-machine.json";
import { SVC_VERSION } from "../version.js";

const say = (line: string) => process.stderr.write(`svc-server: ${line}\n`);

interface ConfigSource {
  /** The one parse of the configuration: the start settings here, and the machine's first load. */
  reading: ConfigReading;
  origin: string;
  file?: string;
  /** The file's text as written (before `${NAME}` references were filled in). */
  written?: string;
  /** A credentials file's other sections: what the machine runs before it first hears from svc-cloud. */
  beforeCloud?: ConfigReading;
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
  const reading = readMachineConfig(read.text);
  const beforeCloud = reading.config?.cloud ? readMachineConfig({ ...(JSON.parse(read.text) as object), cloud: undefined }) : undefined;
  return { reading, origin: file, file, written: read.written, beforeCloud };
}

/** One-off actions: -dump-resources and --aix-install; undefined when neither was asked for. */
async function runOneOff(values: ParsedFlags["values"]): Promise<number | undefined> {
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
  return undefined;
}

function startLogging(values: ParsedFlags["values"], cloud: CloudStart | undefined): LinuxLogging | undefined {
  try {
    return createLinuxLogging({
      logFile: typeof values["log-file"] === "string" ? values["log-file"] : undefined,
      debug: values.debug === true,
      alsoTo: cloud?.logQueue,
    });
  } catch (e) {
    if (!(e instanceof LogFileError)) throw e;
    say(`-log-file ${e.path}: ${e.message}`);
    return undefined;
  }
}

/** The first configuration the machine loads: the file's, or for a cloud-managed machine its cache's. */
async function initialConfig(source: ConfigSource, cloud: CloudStart | undefined, logging: LinuxLogging): Promise<ServeOptions["initial"]> {
  if (!cloud) return { reading: source.reading, config: source.reading.config!, origin: source.origin, file: source.file, written: source.written };
  const log = logging.engine.logger("svc.cloud");
  if (cloud.queueProblem) log.warn(cloud.queueProblem);
  const cache = createConfigCache(cloud.dir, cloud.credentials.partId, Date.now);
  const certificateCache = createCertificateCache(cloud.dir, cloud.credentials.partId, Date.now);
  const cached = bootConfig(cache, log, { reading: source.beforeCloud!, origin: source.origin });
  const boot = (cached.booted === undefined && (await firstBootConfig(cloud.credentials, log))) || cached;
  return {
    reading: boot.reading,
    config: boot.config,
    origin: boot.origin,
    revision: boot.revision,
    cloud: { credentials: cloud.credentials, cache, booted: boot.booted, certificateCache, bootedCertificate: bootCertificate(certificateCache, log), logQueue: cloud.logQueue },
  };
}

/** -ftdc (on unless turned off) into -ftdc-dir, or the default folder for this part. */
function ftdcOf(values: ParsedFlags["values"], cloud: CloudStart | undefined): ServeOptions["ftdc"] {
  if (values.ftdc === false) return undefined;
  const dir = typeof values["ftdc-dir"] === "string" ? values["ftdc-dir"] : defaultFtdcDir(cloud?.credentials.partId);
  return { dir };
}

export async function runServer(flags: ParsedFlags): Promise<number> {
  const { values } = flags;
  const oneOff = await runOneOff(values);
  if (oneOff !== undefined) return oneOff;

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
  // A file with a cloud section is a credentials file: the configuration comes from svc-cloud. One
  // whose cloud section cannot be used does not run unmanaged instead.
  const cloudIssues = reading.issues.filter((issue) => issue.severity === "error" && /^cloud(\.|$)/.test(issue.path));
  if (cloudIssues.length > 0) {
    for (const issue of cloudIssues) say(formatIssue(source.origin, issue));
    say(`${source.origin}: its cloud section cannot be used, so svc-server does not start`);
    return 1;
  }
  // A file with a cloud section is a credentials file: the configuration comes from svc-cloud.
  const cloud = reading.config.cloud ? prepareCloudStart(reading.config.cloud, values["allow-insecure-creds"] === true) : undefined;
  if (cloud && "problem" in cloud) {
    say(`${source.origin}: ${cloud.problem}`);
    return 1;
  }

  const logging = startLogging(values, cloud);
  if (!logging) return 1;
  const profile: CpuProfileFile | undefined =
    typeof values.cpuprofile === "string" ? await startCpuProfileFile(values.cpuprofile) : undefined;
  let server: RunningServer | undefined;
  const signals = handleShutdownSignals({
    async onShutdown(reason) {
      logging.logger.info("shutting down", { reason });
      await server?.stop();
      await profile?.stop();
      logging.close();
      cloud?.logQueue?.close();
    },
  });
  try {
    server = await serve({
      logEngine: logging.engine,
      version: SVC_VERSION,
      initial: await initialConfig(source, cloud, logging),
      noTls: values["no-tls"] === true,
      allowInsecureCreds: values["allow-insecure-creds"] === true,
      untrustedEnv: values["untrusted-env"] === true,
      revealSecrets: values["reveal-sensitive-config-diffs"] === true,
      sharedDir: typeof values.shareddir === "string" ? values.shareddir : undefined,
      webProfile: values.webprofile === true,
      outputTelemetry: values["output-telemetry"] === true,
      ftdc: ftdcOf(values, cloud),
      mdns: values["disable-mdns"] !== true,
      webrtc: values.webrtc !== false,
      requestShutdown: (reason) => signals.begin(reason),
      requestRestart: (reason) => signals.begin(reason, RESTART_EXIT_CODE),
    });
  } catch (e) {
    say(`cannot serve: ${(e as Error).message}`);
    signals.dispose();
    await profile?.stop();
    logging.close();
    cloud?.logQueue?.close();
    return 1;
  }
  say(`serving ${server.listening}`);
  // The process now lives until a signal or the Shutdown call ends it through `signals`.
  return new Promise<number>(() => undefined);
}
