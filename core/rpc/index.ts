// Public face of core/rpc: transport-neutral API handlers (their errors are core/errors' SvcError).
export type { CallInfo } from "./call.js";
export { createResourceLookup } from "./resource-lookup.js";
export { toJsonObject } from "./components/struct-value.js";
export type { ResourceLookup, ResourceSource } from "./resource-lookup.js";
export type { MethodHandler, ServerStreamHandler, ServiceHandlers, UnaryHandler } from "./components/handler-types.js";
export { createSensorService } from "./components/sensor-service.js";
export { createBoardService } from "./components/board-service.js";
export { createMotorService } from "./components/motor-service.js";
export { createServoService } from "./components/servo-service.js";
export { createEncoderService } from "./components/encoder-service.js";
export { createMovementSensorService } from "./components/movement-sensor-service.js";
export { createPowerSensorService } from "./components/power-sensor-service.js";
export { createGenericComponentService } from "./components/generic-component-service.js";
export { createGenericServiceService } from "./components/generic-service-service.js";
export { apiTable, apisServedOn, protoServiceOf, servedApiOf } from "./api-table.js";
export type { ApiKey, ApisOn, ApisWithTargetHandlers, ServedApi, ServiceOf, ServingTarget } from "./api-table.js";
// For the handlers of an API a target serves itself.
export { doCommandMethod, geometriesUnsupportedMethod } from "./components/shared-methods.js";
export { resolve as resolveResource } from "./components/resolve-resource.js";
export { uuidFrom } from "./operation-id.js";
export { createOperations, runOperation, DEFAULT_MAX_ARGUMENTS_LENGTH } from "./operations.js";
export type { OperationStart, Operations, OperationsOptions, OperationView, RunningOperation } from "./operations.js";
export { createSessions, DEFAULT_HEARTBEAT_WINDOW_MS, DEFAULT_MAX_SESSIONS, SESSION_EXPIRED } from "./sessions.js";
export type { SessionView, Sessions, SessionsOptions, StartedSession, Stoppable } from "./sessions.js";
export { createCallRunner, SESSION_EXEMPT_METHODS } from "./call-runner.js";
export type { CallRunner, CallRunnerOptions, CallStart } from "./call-runner.js";
export * from "./robot/index.js";
