// Public face of core/rpc: transport-neutral API handlers and the one error model they speak.
export { Code, RpcError } from "./status.js";
export type { CallInfo } from "./call.js";
export { createResourceLookup } from "./resource-lookup.js";
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
