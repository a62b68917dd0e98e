// svc-server serving: the API port opens at once (the machine INITIALIZING), the configuration is
// applied, and the file is followed from then on: the file watcher hands its text to the machine
// and nothing else. Everything the API needs is wired here and nowhere else: auth, operations and
// sessions around every call, the RobotService, the component services, the plain HTTP routes,
// and the orderly stop. What follows the configuration (auth, the browser rules, telemetry, the
// restart-only warning) hears it from the machine's config events.
import type { ConnectRouter, Interceptor } from "@connectrpc/connect";
import { X509Certificate } from "node:crypto";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createResourceLookup, followConfigInForce, type Clock, type CloudMetadata, type ConfigReading, type LogEngine, type Logger, type Machine, type MachineConfig } from "../../../core/index.js";
import { createNodeClock, type OfflineLogQueue, type RecentLogs } from "../logging/index.js";
import { startCloudSide, type CachedConfig, type CertificateCache, type CloudCredentials, type CloudSide, type CloudSideOptions, type ConfigCache, type PartCertificate } from "./cloud/index.js";
import { browserAccessRules, createApiKeyAuth, registerAuthService, unauthenticatedBindWarning, type ApiKeyAuth } from "./auth/index.js";
import { configFileSource } from "./config-watch/index.js";
import { webProfileRoutes } from "./diagnostics/index.js";
import { serverDiagnostics, type FtdcRecorder } from "./ftdc/index.js";
import { restartStatusRoute, staticFilesRoute, type RestartStatus } from "./http/index.js";
import { createLinuxMachine, type LinuxMachine, type LinuxMachineOptions } from "./linux-machine.js";
import { pageRoutes, type DiagnosticsReadings } from "./page/index.js";
import { remoteServiceCalls } from "../remote-parts/index.js";
import { createModuleSockets, type ModuleSockets } from "../modules/index.js";
import { createProcessManager, followConfigProcesses, type ProcessManager, type ProcessManagerOptions } from "../processes/index.js";
import { listenOnUnixSocket } from "../remote/index.js";
import { createRobotApi, type RobotApi } from "./robot/index.js";
import { componentServiceApis, createModuleForwarding, registerComponentServices } from "./rpc/index.js";
import { createApiServer, createPeerLogLimit, formatListeningOn, loggedValue, whenReady, type ApiServer, type ApiServerOptions, type HttpRoute } from "./transport/index.js";
import { AuthService } from "../../../proto/gen/proto/rpc/v1/auth_pb.js";
import { restartOnCredentials } from "./credentials-arrival.js";
import { restartOnlySettingsWarning } from "./restart-only-settings.js";
import { screenUntrusted } from "./untrusted-screen.js";
import { startDiscovery, type Discovery } from "./mdns/index.js";
import { createInternalSignaling } from "./webrtc/index.js";

export interface ServeOptions {
  /** With `recent`, the entries it keeps, which the control page's log view shows. */
  logEngine: LogEngine & { readonly recent?: RecentLogs };
  version: string;
  /**
   * The first configuration, read once: the reading the machine loads, its configuration (the
   * port settings, read once at start), and where it came from; `file` is watched for changes.
   */
  initial: {
    reading: ConfigReading;
    config: MachineConfig;
    origin: string;
    file?: string;
    written?: string;
    /** The revision it is loaded as (a cached cloud revision); a hash of its text by default. */
    revision?: string;
    /** svc-cloud is the source of the configurations after this one. */
    cloud?: CloudServing;
  };
  noTls?: boolean;
  allowInsecureCreds?: boolean;
  untrustedEnv?: boolean;
  revealSecrets?: boolean;
  sharedDir?: string;
  webProfile?: boolean;
  outputTelemetry?: boolean;
  /** Record diagnostics (FTDC) into this folder once a second (-ftdc, -ftdc-dir). */
  ftdc?: { dir: string };
  /** Answer WebRTC connections, with the signaling service on the API port (default true). */
  webrtc?: boolean;
  /** Advertise the API port over multicast DNS (off with -disable-mdns; off unless asked for). */
  mdns?: boolean;
  /** Starts the process's orderly stop (the Shutdown RPC asks for it). */
  requestShutdown: (reason: string) => void;
  /** Starts the orderly stop of a restart (svc-cloud asks for it); the process exits RESTART_EXIT_CODE. */
  requestRestart?: (reason: string) => void;
}

/** What a cloud-managed machine follows svc-cloud with. */
export interface CloudServing {
  credentials: CloudCredentials;
  cache: ConfigCache;
  booted?: CachedConfig;
  certificateCache: CertificateCache;
  /** svc-cloud's certificate for the part, from the cache: the port offers TLS with it at once. */
  bootedCertificate?: PartCertificate;
  logQueue?: OfflineLogQueue;
}

export interface RunningServer {
  /** Where a client on this machine reaches it. */
  readonly url: string;
  /** What it listens on: "http://0.0.0.0:8080 and http://[::]:8080 (every interface)". */
  readonly listening: string;
  readonly machine: Machine;
  /** Resolves once the first configuration has been applied (or refused). */
  readonly firstLoad: Promise<unknown>;
  /** The FTDC recorder, when -ftdc is on: its last hour of readings is in memory. */
  readonly ftdc?: FtdcRecorder;
  /** Stops accepting calls, closes resources dependents-first, releases the port. */
  stop(): Promise<void>;
}

export async function serve(options: ServeOptions): Promise<RunningServer> {
  const { logEngine } = options;
  const startConfig = options.initial.config;
  const log = logEngine.logger("svc.server");
  const clock = createNodeClock();
  // What a killed svc-server left (its modules, their folder) is stopped and removed first.
  const sockets = await createModuleSockets({ logger: log });
  const diagnostics = serverDiagnostics({ outputTelemetry: options.outputTelemetry, ftdc: options.ftdc, clock, log: logEngine.logger("svc.diagnostics") });
  const machine = createLinuxMachine({
    logEngine,
    clock,
    revealSecrets: options.revealSecrets,
    screen: options.untrustedEnv ? screenUntrusted : undefined,
    modules: moduleOptions(diagnostics.watchModules(sockets), options.initial.file),
    // A remote the direct way cannot reach is dialled through svc-cloud, once the machine follows it.
    remotesThroughCloud: () => cloudSide?.dialer,
  });
  const processes = runProcesses(machine, { logEngine, clock, baseDir: configDir(options.initial.file), recordGroup: sockets.recordGroup });
  diagnostics.follow(machine);
  machine.onConfig(restartOnlySettingsWarning(log, startConfig));
  if (!options.initial.cloud) machine.onConfig(restartOnCredentials(log, options.requestRestart ?? options.requestShutdown));
  // Auth and the browser rules follow the configuration in force: an edit the machine takes
  // applies at once (a removed key's tokens end), one it refuses changes nothing.
  const runningConfig = followConfigInForce(machine, startConfig);
  // The port knows the machine's names; a key without an id authenticates them (set once listening).
  let namesMachine = (_entity: string) => false;
  const auth = createApiKeyAuth({
    auth: () => runningConfig().auth,
    allowInsecureCreds: options.allowInsecureCreds,
    namesThisMachine: (entity) => namesMachine(entity),
    logger: logEngine.logger("svc.auth"),
  });
  let cloudSide: CloudSide | undefined;
  const robot = robotApiFollowing(machine, options, clock, () => cloudSide?.metadata());
  const lookup = createResourceLookup(machine.engine);
  const machineApi = (router: ConnectRouter) => {
    robot.routes(router);
    registerComponentServices(router, lookup, robot.callOptions);
  };

  const { network } = startConfig;
  const tls = tlsPlan(options, network);
  const authenticatePath = `/${AuthService.typeName}/${AuthService.method.authenticate.name}`;
  const webrtc = options.webrtc === false ? undefined : createInternalSignaling({ auth, clock, logger: logEngine.logger("svc.webrtc") });
  const interceptors: Interceptor[] = [diagnostics.interceptor, auth.interceptor, robot.interceptor].filter(
    (i): i is Interceptor => i !== undefined,
  );
  const server: ApiServer = await createApiServer({
    bindAddress: network.bind_address,
    tls: tls.files,
    tlsAlongside: tls.booted && { cert: tls.booted.cert, key: tls.booted.key },
    interceptors,
    httpRoutes: httpRoutes(options, auth, machine, () => cloudSide?.restartRequested() ?? false, () => diagnostics.recorder?.lastHour()),
    access: browserAccessRules(runningConfig, () => cloudSide?.names() ?? []),
    checkRpc: credentialsCheck(auth, authenticatePath),
    openMethods: [authenticatePath],
    limits: { maxMessageBytes: network.max_message_bytes },
    onConnectionRefused: refusedConnectionsLog(log),
    forwardOf: createModuleForwarding({ lookup, apis: componentServiceApis, onActuatorDriven: robot.callOptions.onActuatorDriven }),
    foreign: remoteServiceCalls(machine.remotes, lookup),
    onCallError: (error, path) => log.debug("a call's answer could not be written", { path: loggedValue(path), error: loggedValue(String(error)) }),
    routes(router) {
      registerAuthService(router, auth);
      webrtc?.routes(router);
      machineApi(router);
    },
    onRouteError: (error, method, path) => log.error("HTTP route failed", { method: loggedValue(method), path: loggedValue(path), error: String(error) }),
  });
  namesMachine = server.namesMachine;
  webrtc?.attach(server);
  if (tls.booted) sayCloudTls(server, tls.booted, log, "cache");
  // Modules reach their dependencies here: the same API, on a socket only this user can open.
  const parentSocket = await listenOnUnixSocket(sockets.parent, machineApi, { interceptors: [robot.interceptor] });
  log.info("serving", { listening: server.listening.urls, tls: server.secure, auth: auth.enabled });
  const openWarning = unauthenticatedBindWarning(network.bind_address, startConfig.auth);
  if (openWarning) log.warn(openWarning);

  // The machine takes loads one after another, so a quick second save never races the first.
  const firstLoad = machine.load(options.initial.reading, options.initial.origin, { revision: options.initial.revision });
  const offerTls = tls.cloud ? (certificate: PartCertificate) => offerCloudTls(server, certificate, log) : undefined;
  cloudSide = options.initial.cloud && followCloud(options.initial.cloud, machine, options, clock, { offerTls, answerer: webrtc?.answerer, ftdc: diagnostics.recorder?.files });

  // The file as written: the watcher hands on only a text that differs from it.
  const { file, written = options.initial.reading.text } = options.initial;
  const watcher = file ? configFileSource(file, { initialWritten: written, load: machine.load, logger: log }) : undefined;
  const discovery = discoveryOf(options, server, machine, () => cloudSide?.names() ?? [], clock);

  let stopping: Promise<void> | undefined;
  return {
    url: server.url,
    listening: formatListeningOn(server.listening),
    machine,
    firstLoad,
    ftdc: diagnostics.recorder,
    stop() {
      stopping ??= (async () => {
        watcher?.close();
        await cloudSide?.close();
        webrtc?.close();
        // The network hears goodbye as the port stops taking calls.
        await discovery.close();
        await server.close();
        robot.close();
        await parentSocket.close();
        const report = await machine.close();
        // After resources and modules, which may still be using them.
        await processes.close();
        await sockets.remove();
        for (const hung of report.hung) log.warn("resource did not close in time", { resource: hung });
        for (const failed of report.failed) log.error("resource failed to close", { resource: failed.name, error: failed.error });
        diagnostics.close();
      })();
      return stopping;
    },
  };
}

/** A flood of refused connections is a few lines a minute per address, not a line each. */
function refusedConnectionsLog(log: Logger): (peer: string, reason: string) => void {
  const refusedLines = createPeerLogLimit();
  return (peer, reason) => {
    const extra = refusedLines.admit(peer);
    if (extra) log.warn("connection refused", { peer, reason, ...extra });
  };
}

/** Discovery over mDNS: one responder, its names following the configuration and svc-cloud's. */
function discoveryOf(options: ServeOptions, server: ApiServer, machine: Machine, cloudNames: () => readonly string[], clock: Clock): Discovery {
  return startDiscovery({
    disabled: options.mdns !== true,
    webrtc: options.webrtc !== false,
    listening: { host: server.host, port: server.port },
    network: options.initial.config.network,
    cloudNames,
    onConfig: machine.onConfig,
    log: options.logEngine.logger("svc.mdns"),
    clock,
  });
}

/** The RobotService, following the configuration in force: its cloud section, its components' frames, its session window. */
function robotApiFollowing(machine: LinuxMachine, options: ServeOptions, clock: Clock, cloudMetadata: () => CloudMetadata | undefined): RobotApi {
  return createRobotApi({
    engine: machine.engine,
    version: options.version,
    cloud: () => machine.current()?.config.cloud,
    cloudMetadata,
    components: () => machine.current()?.config.components,
    heartbeatWindowMs: () => machine.current()?.config.network.sessions.heartbeat_window_ms,
    requestShutdown: () => options.requestShutdown("Shutdown requested through the API"),
    moduleStatuses: () => machine.moduleStatuses(),
    foreignServiceOf: (api) => machine.remotes.serviceOfApi(api),
    logger: options.logEngine.logger("svc.sessions"),
    clock,
  });
}

function moduleOptions(sockets: ModuleSockets, configFile: string | undefined): LinuxMachineOptions["modules"] {
  return {
    sockets,
    baseDir: configDir(configFile),
    packages: {
      registryUrl: process.env.SVC_MODULE_REGISTRY || undefined,
      cacheDir: process.env.SVC_MODULE_CACHE || join(homedir(), ".svc", "modules"),
    },
  };
}

/**
 * The configuration's processes, following the configuration in force. Their groups are written
 * down beside the modules', so a killed svc-server's are stopped by the next one.
 */
function runProcesses(machine: Machine, options: ProcessManagerOptions): ProcessManager {
  const processes = createProcessManager(options);
  const log = options.logEngine.logger("svc.server");
  machine.onConfig(followConfigProcesses(processes, (error) => log.error("processes could not follow the configuration", { error: String(error) })));
  return processes;
}

/** Where relative paths in the configuration are found from: its file's folder. */
function configDir(configFile: string | undefined): string {
  return configFile ? dirname(resolve(configFile)) : process.cwd();
}

/** svc-cloud followed: configurations handed to the machine's load, logs uploaded, restarts honoured. */
function followCloud(cloud: CloudServing, machine: Machine, options: ServeOptions, clock: Clock, port: Pick<CloudSideOptions, "offerTls" | "answerer" | "ftdc">): CloudSide {
  const requestRestart = options.requestRestart ?? options.requestShutdown;
  return startCloudSide({
    ...cloud,
    ...port,
    load: machine.load,
    appliedRevision: () => machine.engine.status().revision,
    log: options.logEngine.logger("svc.cloud"),
    clock,
    mayRestart: async () => {
      const status = await restartStatus(machine, () => false);
      return { allowed: status.restartAllowed, reason: status.reason };
    },
    restart: requestRestart,
  });
}

/**
 * How the port does TLS: with the configuration's files; or, for a cloud-managed machine with
 * none of its own, with svc-cloud's certificate for its names beside cleartext (a client that
 * opens with a TLS handshake gets it), the cached one from the start; or not at all (-no-tls).
 */
function tlsPlan(options: ServeOptions, network: MachineConfig["network"]) {
  const files = !options.noTls && network.tls_cert_file !== "" && network.tls_key_file !== "" ? { certFile: network.tls_cert_file, keyFile: network.tls_key_file } : undefined;
  const cloud = !options.noTls && files === undefined && options.initial.cloud !== undefined;
  return { files, cloud, booted: cloud ? options.initial.cloud?.bootedCertificate : undefined };
}

/** The port offers TLS with a new certificate from svc-cloud, saying for which names; one it cannot use changes nothing. */
function offerCloudTls(server: ApiServer, certificate: PartCertificate, log: Logger): void {
  try {
    server.offerTls({ cert: certificate.cert, key: certificate.key });
    sayCloudTls(server, certificate, log, "svc-cloud");
  } catch (thrown) {
    log.warn("cannot offer TLS with svc-cloud's certificate", { error: String(thrown) });
  }
}

function sayCloudTls(server: ApiServer, certificate: PartCertificate, log: Logger, from: "svc-cloud" | "cache"): void {
  const names = new X509Certificate(certificate.cert).subjectAltName ?? "";
  log.info("offering TLS with svc-cloud's certificate beside cleartext", { names, port: server.port, from });
}

/** The plain HTTP routes: restart status and the control page (with the FTDC readings for its charts) always; the profiles and shared files when asked for. */
function httpRoutes(options: ServeOptions, auth: ApiKeyAuth, machine: Machine, restartRequested: () => boolean, diagnostics: DiagnosticsReadings): HttpRoute[] {
  const { initial } = options;
  const routes: HttpRoute[] = [
    restartStatusRoute(() => restartStatus(machine, restartRequested)),
    ...pageRoutes({
      machine,
      source: { kind: initial.cloud ? "cloud" : initial.file ? "file" : "builtin", label: initial.cloud ? "svc-cloud" : initial.origin, file: initial.cloud ? undefined : initial.file },
      tokensRequired: () => auth.enabled,
      isAuthenticated: async (req) => (await auth.checkRequest(req)).ok,
      recentLogs: options.logEngine.recent,
      diagnostics,
      atRoot: !options.sharedDir,
      webrtc: options.webrtc !== false,
    }),
  ];
  if (options.webProfile) {
    routes.push(
      ...webProfileRoutes({
        tokensRequired: () => auth.enabled,
        isAuthenticated: async (req) => (await auth.checkRequest(req)).ok,
      }),
    );
  }
  if (options.sharedDir) routes.push(staticFilesRoute({ dir: options.sharedDir }));
  return routes;
}

async function restartStatus(machine: Machine, restartRequested: () => boolean): Promise<RestartStatus> {
  const reconfiguring = machine.engine.status().reconfiguring;
  // The engine's own gate: without a maintenance window it allows maintenance.
  const decision = await machine.engine.checkMaintenance();
  const reason = reconfiguring
    ? "a configuration is being applied"
    : !decision.allowed
      ? `the maintenance window does not allow it: ${decision.reason}`
      : "";
  return { restartAllowed: !reconfiguring && decision.allowed, reconfiguring, maintenanceAllowed: decision.allowed, reason, restartRequested: restartRequested() };
}

// With keys, a call without a valid token hears UNAUTHENTICATED before its body is read (and
// before it learns whether the method is served); Authenticate is open, its body kept small.
function credentialsCheck(auth: ApiKeyAuth, authenticatePath: string): ApiServerOptions["checkRpc"] {
  return (headers, path, peer) => {
    if (!auth.enabled || path === authenticatePath) return undefined;
    return whenReady(auth.checkAuthorization(headers.authorization, peer), (check) =>
      check.ok ? { entity: check.keyId } : { code: check.code, message: check.message },
    );
  };
}
