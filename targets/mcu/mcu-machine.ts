// The machine on a microcontroller: the core's pipeline and RobotService assembly (core/machine),
// the same as svc-server's, with what only the MCU has: the built-in models on the device's IO,
// no modules and no remotes (each entry is reported and left out), FNV revisions (no crypto
// here), and the transport-free RPC dispatcher. A new configuration is applied in place (only
// what changed is rebuilt; the maintenance window gates it as on the server). API keys follow the
// configuration in force (see machine-auth.ts); `proto.rpc.v1.AuthService` trades them for tokens.
import {
  apisServedOn,
  createLogEngine,
  createMachine,
  createModelRegistry,
  createResourceLookup,
  createRobotAssembly,
  registerBuiltinModels,
  uuidFrom,
  type Clock,
  type ConfigIssue,
  type ConfigScreen,
  type GraphEngine,
  type LoadResult,
  type LogSink,
  type MachineConfig,
  type MachineStatus,
  type ResourceConfig,
  type ResourceLookup,
  type ShutdownReport,
} from "../../core/index.js";
import { createWireCodec, wireTables } from "./codec/index.js";
import { createRpcDispatcher, type DispatchedCall, type DispatchRequest } from "./dispatch/index.js";
import type { IOProvider } from "../../hal/io.js";
import type { ApiKeyGate, ApiKeyGateSettings } from "./api-key-gate.js";
import { configRevision } from "./config-revision.js";
import { createMachineAuth, type MachineAuth } from "./machine-auth.js";
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
  /** Reads a configuration text and applies it in place, one at a time; resolves (never rejects) when applied, deferred or refused. */
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

/**
 * Resources built (or closed) at once. Each build in flight holds its suspended calls (their
 * frames are kept in XS chunks) until it settles, and a microcontroller's builds touch local IO
 * only, so a few at a time keep the peak of a reconfiguration low without slowing it.
 */
const MCU_BUILD_CONCURRENCY = 4;

/** Module entries cannot run on a microcontroller: each is reported and left out. */
function moduleIssues(config: MachineConfig): ConfigIssue[] {
  return config.modules.map((m, i) => ({
    path: `modules[${i}]`,
    message: `module ${JSON.stringify(m.name)} cannot run on a microcontroller; it is ignored`,
    severity: "warning" as const,
  }));
}

/** Remotes are joined by svc-server only: each entry is reported and left out. */
function remoteIssues(config: MachineConfig): ConfigIssue[] {
  return config.remotes.map((r, i) => ({
    path: `remotes[${i}]`,
    message: `remote ${JSON.stringify(r.name)} is not joined on a microcontroller; it is ignored (join this part from svc-server instead)`,
    severity: "warning" as const,
  }));
}

/**
 * What the MCU serves, by service: the machine's own services and the rows of the table of
 * served APIs that name the MCU. Each service's handlers are made on its first call.
 */
function servedServices(lookup: ResourceLookup, robot: () => object, auth: () => object): Record<string, () => object> {
  const services: Record<string, () => object> = { "viam.robot.v1.RobotService": robot };
  for (const [, served] of apisServedOn("mcu")) {
    const handlers = served.handlers;
    // Every MCU row has the core's handlers: only Linux rows may leave them to their target.
    if (handlers !== undefined) services[served.service] = () => handlers(lookup);
  }
  services["proto.rpc.v1.AuthService"] = auth;
  return services;
}

/** The MCU's screen: keys it cannot serve refuse the configuration; modules and remotes are left out. */
function mcuScreen(auth: MachineAuth): ConfigScreen {
  return (parsed) => {
    const checked = auth.screen(parsed);
    if (!checked.config) return checked;
    return { config: checked.config, issues: [...checked.issues, ...moduleIssues(checked.config), ...remoteIssues(checked.config)] };
  };
}

/** A load's result as PUT /svc/config and the host protocol report it. */
function reportOf(result: LoadResult): ConfigReport {
  switch (result.outcome) {
    case "refused":
      return { outcome: "refused", reason: result.reason, issues: result.issues };
    case "applied": {
      const { added, modified, removed } = result.plan;
      return { outcome: "applied", revision: result.revision, added, modified, removed };
    }
    case "deferred":
      return { outcome: "deferred", revision: result.revision, reason: result.reason };
    case "failed":
      return { outcome: "failed", revision: result.revision, reason: result.error };
    default:
      return { outcome: result.outcome, revision: result.revision };
  }
}

export function createMcuMachine(options: McuMachineOptions): McuMachine {
  const { clock } = options;
  const logs = createLogEngine({ clock, sink: options.sink });
  const log = logs.logger("svc.config");
  const auth = createMachineAuth({
    now: () => clock.now(),
    randomBytes: options.randomBytes,
    apiKeys: options.apiKeys,
    logger: logs.logger("svc.auth"),
  });
  const registry = createModelRegistry();
  registerBuiltinModels(registry, { ioForBoard: options.ioForBoard });
  const machine = createMachine({ registry, logEngine: logs, clock, revisionOf: configRevision, screen: mcuScreen(auth), buildConcurrency: MCU_BUILD_CONCURRENCY });
  machine.onConfig(auth.follow);

  const { engine } = machine;
  const robot = createRobotAssembly({
    engine,
    clock,
    newId: () => uuidFrom(options.random),
    version: { platform: MCU_PLATFORM, version: options.version ?? SVC_VERSION, apiVersion: VIAM_API_VERSION },
    cloud: () => machine.current()?.config.cloud,
    components: () => machine.current()?.config.components,
    // Shutdown is not served on the MCU: a device runs until it loses power.
    requestShutdown: () => {},
    heartbeatWindowMs: options.heartbeatWindowMs,
    logger: log,
  });
  const dispatcher = createRpcDispatcher({
    codec: createWireCodec(wireTables),
    runner: robot.runner,
    services: servedServices(createResourceLookup(engine), robot.service, auth.service),
  });

  return {
    applyConfig: async (text) => reportOf(await machine.load(text)),
    serve: (request) => dispatcher.start(request),
    auth: auth.gate,
    status: () => engine.status(),
    engine,
    async close() {
      robot.close();
      const report = await machine.close();
      logs.close();
      return report;
    },
  };
}
