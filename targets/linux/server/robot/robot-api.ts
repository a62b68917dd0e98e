// The RobotService on svc-server: the core's assembly (core/machine: operations, sessions, the
// call runner, the service) on the wall clock with strong random ids, with what connect needs
// around it: the call interceptor, the routes, and the hook that hands driven actuators to the
// sessions for the component services.
import { randomUUID } from "node:crypto";
import type { ConnectRouter, Interceptor } from "@connectrpc/connect";
import {
  createRobotAssembly,
  type CallRunner,
  type Clock,
  type CloudConfig,
  type CloudMetadata,
  type GraphEngine,
  type LoggerLike,
  type Operations,
  type ResourceConfig,
  type ResourceStatus,
  type Sessions,
} from "../../../../core/index.js";
import { createNodeClock } from "../../logging/index.js";
import type { ConnectCallOptions } from "../rpc/index.js";
import { createCallInterceptor } from "./call-interceptor.js";
import { registerRobotService } from "./robot-routes.js";
import { PLATFORM, VIAM_API_VERSION } from "./version.js";

export interface RobotApiOptions {
  engine: GraphEngine;
  /** svc-server's own version (package.json). */
  version: string;
  /** The running configuration's cloud section, if any. */
  cloud: () => CloudConfig | undefined;
  /** Where the machine sits in the cloud, once svc-cloud said (a cloud-managed machine). */
  cloudMetadata?: () => CloudMetadata | undefined;
  /** The running configuration's components: their frames make the frame system. */
  components?: () => readonly ResourceConfig[] | undefined;
  /** Starts a graceful shutdown; called after the Shutdown answer is on its way. */
  requestShutdown: () => void;
  /** A session's heartbeat window, or where to read it. Default 2 s. */
  heartbeatWindowMs?: number | (() => number | undefined);
  moduleStatuses?: () => ResourceStatus[];
  /** The protobuf service of an API svc does not serve itself, as the part serving it said. */
  foreignServiceOf?: (api: string) => string | undefined;
  logger?: LoggerLike;
  /** The wall clock by default. */
  clock?: Clock;
}

export interface RobotApi {
  readonly operations: Operations;
  readonly sessions: Sessions;
  readonly runner: CallRunner;
  /** Install on the API server, after authentication: every call becomes an operation. */
  readonly interceptor: Interceptor;
  /** Registers the RobotService. */
  routes(router: ConnectRouter): void;
  /** For the component services: actuators their calls drive are handed to the call's session. */
  readonly callOptions: ConnectCallOptions;
  /** Forgets sessions (stopping nothing) and stops following the engine. */
  close(): void;
}

export function createRobotApi(options: RobotApiOptions): RobotApi {
  const robot = createRobotAssembly({
    engine: options.engine,
    clock: options.clock ?? createNodeClock(),
    newId: randomUUID,
    version: { platform: PLATFORM, version: options.version, apiVersion: VIAM_API_VERSION },
    cloud: options.cloud,
    cloudMetadata: options.cloudMetadata,
    components: options.components,
    // The answer goes out first; the shutdown itself lets calls in flight finish.
    requestShutdown: () => void setImmediate(options.requestShutdown),
    moduleStatuses: options.moduleStatuses,
    foreignServiceOf: options.foreignServiceOf,
    heartbeatWindowMs: options.heartbeatWindowMs,
    logger: options.logger,
  });
  const { operations, sessions, runner } = robot;

  return {
    operations,
    sessions,
    runner,
    interceptor: createCallInterceptor({ runner }),
    routes: (router) => registerRobotService(router, robot.service()),
    callOptions: {
      onActuatorDriven: (sessionId, name, resource) => sessions.associate(sessionId, name, resource),
    },
    close: robot.close,
  };
}
