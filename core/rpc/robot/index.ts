// Public face of core/rpc/robot: the RobotService handlers, what they need from a machine, and
// the graph-backed part of it.
export { createRobotService } from "./robot-service.js";
export type { RobotServiceHandlers } from "./robot-service.js";
export type { CloudMetadata, RobotServiceDeps, VersionInfo } from "./robot-service-deps.js";
export { createGraphRobotParts } from "./graph-robot-parts.js";
export type { GraphRobotParts, GraphRobotPartsOptions } from "./graph-robot-parts.js";
export { wireResourceName } from "./machine-status.js";
export { durationFromMs, timestampFromMs } from "./wire-time.js";
