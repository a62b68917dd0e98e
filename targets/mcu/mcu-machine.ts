// The machine on a microcontroller: the same core as svc-server (configuration, log rules, the
// resource graph, the built-in models) behind the transport-free RPC dispatcher. Configuration
// flows one way: text -> parse -> acceptance -> log levels -> graph, and a new one is applied in
// place (only what changed is rebuilt; the maintenance window gates it as on the server). API
// keys follow the running configuration (see api-key-gate.ts); `proto.rpc.v1.AuthService` trades
// them for tokens.
import {
  createBoardService,
  createCallRunner,
  createEncoderService,
  createGenericComponentService,
  createGenericServiceService,
  createGraphEngine,
  createGraphRobotParts,
  createLogEngine,
  createModelRegistry,
  createMotorService,
  createMovementSensorService,
  createOperations,
  createPowerSensorService,
  createResourceLookup,
  createRobotService,
  createSensorService,
  createServoService,
  createSessions,
  formatConfigDiff,
  acceptConfig,
  loggingSettingsOf,
  parseMachineConfig,
  registerBuiltinModels,
  uuidFrom,
  type Clock,
  type ConfigIssue,
  type GraphEngine,
  type LogSink,
  type MachineConfig,
  type MachineStatus,
  type ResourceConfig,
  type ResourceLookup,
  type ShutdownReport,
} from "../../core/index.js";
import { createWireCodec, wireTables } from "../../core/rpc/codec/index.js";
import { createRpcDispatcher, type DispatchedCall, type DispatchRequest } from "../../core/rpc/dispatch/index.js";
import type { IOProvider } from "../../hal/io.js";
import type { ApiKeyGate, ApiKeyGateSettings } from "./api-key-gate.js";
import { configRevision } from "./config-revision.js";
import { createMachineAuth } from "./machine-auth.js";
import { MCU_PLATFORM, SVC_VERSION, VIAM_API_VERSION } from "./version.js";

export interface McuMachineOptions {
  clock: Clock;
  /** A number in [0, 1) per call, for operation and session ids. */
  random: () => number;
  /**
   * `count` random bytes from the platform's secure source, for access tokens. Without it a
   * configuration with API keys is refused: tokens from `random` could be guessed.
   */
  randomBytes?: (count: number) => Uint8Array;
  /** How API keys are served here: token life and number, names, port, plaintext. */
  apiKeys?: ApiKeyGateSettings;
  /** The IO of the hardware a board entry stands for. */
  ioForBoard(config: ResourceConfig): IOProvider;
  sink: LogSink;
  /** Reported by GetVersion; this build's by default. */
  version?: string;
  /** A session's heartbeat window. Default 2 s. */
  heartbeatWindowMs?: number;
}

/** What became of a configuration: the graph's outcome with what it changed, or why it was not used. */
export interface ConfigReport {
  outcome: "applied" | "deferred" | "superseded" | "failed" | "closed" | "refused" | "unchanged";
  revision?: string;
  reason?: string;
  added?: string[];
  modified?: string[];
  removed?: string[];
  issues?: ConfigIssue[];
}

export interface McuMachine {
  /** Reads a configuration text and applies it in place; resolves when applied, deferred or refused. */
  applyConfig(text: string): Promise<ConfigReport>;
  /** Serves one gRPC-web call (its token already checked by the transport, against `auth`). */
  serve(request: DispatchRequest): DispatchedCall;
  /** Who may call: the running configuration's API keys and the tokens issued for them. */
  readonly auth: ApiKeyGate;
  status(): MachineStatus;
  readonly engine: GraphEngine;
  /** Closes every resource, dependents first. */
  close(): Promise<ShutdownReport>;
}

interface Running {
  config: MachineConfig;
  issues: ConfigIssue[];
  revision: string;
}

/** Module entries cannot run on a microcontroller: each is reported and left out. */
function moduleIssues(config: MachineConfig): ConfigIssue[] {
  return config.modules.map((m, i) => ({
    path: `modules[${i}]`,
    message: `module ${JSON.stringify(m.name)} cannot run on a microcontroller; it is ignored`,
    severity: "warning" as const,
  }));
}

/** What the MCU serves, by service: each service's handlers are made on its first call. */
function servedServices(lookup: ResourceLookup, robot: () => object, auth: () => object): Record<string, () => object> {
  return {
    "viam.robot.v1.RobotService": robot,
    "viam.component.sensor.v1.SensorService": () => createSensorService(lookup),
    "viam.component.board.v1.BoardService": () => createBoardService(lookup),
    "viam.component.motor.v1.MotorService": () => createMotorService(lookup),
    "viam.component.servo.v1.ServoService": () => createServoService(lookup),
    "viam.component.encoder.v1.EncoderService": () => createEncoderService(lookup),
    "viam.component.movementsensor.v1.MovementSensorService": () => createMovementSensorService(lookup),
    "viam.component.powersensor.v1.PowerSensorService": () => createPowerSensorService(lookup),
    "viam.component.generic.v1.GenericService": () => createGenericComponentService(lookup),
    "viam.service.generic.v1.GenericService": () => createGenericServiceService(lookup),
    "proto.rpc.v1.AuthService": auth,
  };
}

export function createMcuMachine(options: McuMachineOptions): McuMachine {
  const { clock } = options;
  const logs = createLogEngine({ clock, sink: options.sink });
  const log = logs.logger("svc.config");
  const registry = createModelRegistry();
  registerBuiltinModels(registry, { ioForBoard: options.ioForBoard });
  const engine = createGraphEngine({
    registry,
    clock,
    logger: logs.logger("svc.resource_manager"),
    loggerFor: (_name, config) => logs.resourceLogger(config.api, config.name),
  });
  let running: Running | undefined;
  const auth = createMachineAuth({
    running: () => running?.config,
    now: () => clock.now(),
    randomBytes: options.randomBytes,
    apiKeys: options.apiKeys,
    logger: logs.logger("svc.auth"),
  });

  const newId = () => uuidFrom(options.random);
  const parts = createGraphRobotParts({ engine, clock, logger: log });
  const operations = createOperations({ clock, newId, logger: log });
  const sessions = createSessions({ clock, newId, heartbeatWindowMs: options.heartbeatWindowMs, logger: log, actuatorNamed: parts.actuatorNamed });
  const robot = () =>
    createRobotService({
    ...parts,
    version: { platform: MCU_PLATFORM, version: options.version ?? SVC_VERSION, apiVersion: VIAM_API_VERSION },
    operations,
    sessions,
    // Shutdown is not served on the MCU: a device runs until it loses power.
    requestShutdown: () => {},
    cloudMetadata() {
      const cloud = running?.config.cloud;
      return cloud ? { machinePartId: cloud.id, primaryOrgId: "", locationId: "", machineId: "" } : undefined;
    },
  });
  const dispatcher = createRpcDispatcher({
    codec: createWireCodec(wireTables),
    runner: createCallRunner({ operations, sessions }),
    services: servedServices(createResourceLookup(engine), robot, auth.service),
  });

  function reportIssues(issues: readonly ConfigIssue[], known: readonly ConfigIssue[]): void {
    const seen = new Set(known.map((i) => `${i.path}\u0000${i.message}`));
    for (const issue of issues) {
      if (seen.has(`${issue.path}\u0000${issue.message}`)) continue;
      if (issue.severity === "error") log.error(issue.message, { path: issue.path });
      else log.warn(issue.message, { path: issue.path });
    }
  }

  async function applyConfig(text: string): Promise<ConfigReport> {
    const revision = configRevision(text);
    if (running && running.revision === revision) return { outcome: "unchanged", revision };
    const parsed = auth.screen(parseMachineConfig(text));
    const issues = parsed.config ? [...parsed.issues, ...moduleIssues(parsed.config)] : parsed.issues;
    const acceptance = acceptConfig({ config: parsed.config, issues }, running);
    if (!acceptance.accepted) {
      reportIssues(acceptance.newErrors, []);
      auth.refused(text, acceptance.reason, running === undefined);
      log.error(running ? "configuration refused; the machine keeps running as it was" : "configuration cannot be used", { reason: acceptance.reason });
      return { outcome: "refused", reason: acceptance.reason, issues: acceptance.newErrors };
    }
    auth.taken();
    const config = acceptance.config;
    reportIssues(issues, running?.issues ?? []);
    if (running) for (const line of formatConfigDiff(running.config, config)) log.info(`config change: ${line}`);
    logs.configure(loggingSettingsOf(config));
    const first = running === undefined;
    running = { config, issues, revision };
    const result = await engine.apply(config, { revision });
    switch (result.outcome) {
      case "applied": {
        const { added, modified, removed } = result.plan;
        log.info(first ? "configuration loaded" : "configuration applied", { revision, components: config.components.length, services: config.services.length });
        return { outcome: "applied", revision, added, modified, removed };
      }
      case "deferred":
        log.info("configuration deferred until the maintenance window allows it", { reason: result.reason });
        return { outcome: "deferred", revision, reason: result.reason };
      case "failed":
        return { outcome: "failed", revision, reason: result.error };
      default:
        return { outcome: result.outcome, revision };
    }
  }

  return {
    applyConfig,
    serve: (request) => dispatcher.start(request),
    auth: auth.gate,
    status: () => engine.status(),
    engine,
    async close() {
      sessions.close();
      parts.close();
      const report = await engine.close();
      logs.close();
      return report;
    },
  };
}
