// Everything a machine needs to serve the RobotService and run calls as operations under
// sessions, put together once for every target: the graph's part of the service, operations and
// sessions on the target's clock and ids, the call runner every transport goes through, and
// GetCloudMetadata from the configuration in force. Targets add their transport around it.
import type { Clock } from "../clock.js";
import type { CloudConfig, ResourceConfig } from "../config/index.js";
import { frameSystemOf } from "../frame/index.js";
import type { GraphEngine, ResourceStatus } from "../graph/index.js";
import type { LoggerLike } from "../resource/index.js";
import {
  createCallRunner,
  createGraphRobotParts,
  createOperations,
  createRobotService,
  createSessions,
  type CallRunner,
  type CloudMetadata,
  type GraphRobotParts,
  type Operations,
  type RobotServiceHandlers,
  type Sessions,
  type VersionInfo,
} from "../rpc/index.js";

export interface RobotAssemblyOptions {
  /** Made before the engine applies its first configuration, so every applied time is seen. */
  engine: GraphEngine;
  clock: Clock;
  /** A new operation or session id (a UUID). */
  newId: () => string;
  version: VersionInfo;
  /** The cloud section of the configuration in force, if any. */
  cloud: () => CloudConfig | undefined;
  /**
   * Where the machine sits in the cloud, as the cloud said (a cloud-managed machine knows its
   * machine, location and organisation); when it answers nothing, the cloud section's part id.
   */
  cloudMetadata?: () => CloudMetadata | undefined;
  /** The components of the configuration in force: their frames make the frame system. None: only the world. */
  components?: () => readonly ResourceConfig[] | undefined;
  /** Asks for an orderly stop; must return at once so the answer still reaches the caller. */
  requestShutdown: () => void;
  moduleStatuses?: () => ResourceStatus[];
  /** The protobuf service of an API svc does not serve itself, as the part serving it said. */
  foreignServiceOf?: (api: string) => string | undefined;
  /** A session's heartbeat window, or where to read it. Default 2 s. */
  heartbeatWindowMs?: number | (() => number | undefined);
  logger?: LoggerLike;
}

export interface RobotAssembly {
  readonly operations: Operations;
  readonly sessions: Sessions;
  /** What every transport runs a call through: session check, then the call as an operation. */
  readonly runner: CallRunner;
  /** The RobotService's handlers, made on first use and kept. */
  service(): RobotServiceHandlers;
  /** Forgets sessions (stopping nothing) and stops following the engine. */
  close(): void;
}

const noComponents: readonly ResourceConfig[] = [];

export function createRobotAssembly(options: RobotAssemblyOptions): RobotAssembly {
  const { clock, newId, logger } = options;
  const parts = createGraphRobotParts({ engine: options.engine, clock, logger });
  const operations = createOperations({ clock, newId, logger });
  const sessions = createSessions({ clock, newId, heartbeatWindowMs: options.heartbeatWindowMs, logger, actuatorNamed: parts.actuatorNamed });
  let handlers: RobotServiceHandlers | undefined;

  return {
    operations,
    sessions,
    runner: createCallRunner({ operations, sessions }),
    // Thin: on a microcontroller a closure carries a copy of its code (robotService is made once).
    service: () => (handlers ??= robotService(options, parts, operations, sessions)),
    close() {
      sessions.close();
      parts.close();
    },
  };
}

function robotService(options: RobotAssemblyOptions, parts: GraphRobotParts, operations: Operations, sessions: Sessions): RobotServiceHandlers {
  return createRobotService({
    ...parts,
    moduleStatuses: options.moduleStatuses,
    foreignServiceOf: options.foreignServiceOf,
    version: options.version,
    operations,
    sessions,
    requestShutdown: options.requestShutdown,
    cloudMetadata() {
      const known = options.cloudMetadata?.();
      if (known) return known;
      const cloud = options.cloud();
      return cloud ? { machinePartId: cloud.id, primaryOrgId: "", locationId: "", machineId: "" } : undefined;
    },
    frameSystem: () => frameSystemOf(options.components?.() ?? noComponents),
  });
}
