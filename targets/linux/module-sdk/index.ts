// The module SDK (`svc/module-sdk`): write a module as a list of models and call serveModule.
//   import { serveModule, SENSOR_API } from "svc/module-sdk";
//   await serveModule({ models: [{ api: SENSOR_API, model: "acme:demo:counter", build: async (ctx) => ... }] });
export { serveModule } from "./serve-module.js";
export type { RunningModule, ServeModuleOptions } from "./serve-module.js";
export type { ModuleBuildContext, ModuleDependencies, ModuleModel, ModuleValidationResult } from "./module-model.js";
export type { ModuleLogger } from "./module-logger.js";
export {
  BOARD_API,
  ENCODER_API,
  GENERIC_COMPONENT_API,
  GENERIC_SERVICE_API,
  MOTOR_API,
  MOVEMENT_SENSOR_API,
  POWER_SENSOR_API,
  SENSOR_API,
  SERVO_API,
  Code,
  SvcError,
} from "../../../core/index.js";
export type {
  Board,
  Encoder,
  Motor,
  MovementSensor,
  PowerSensor,
  Resource,
  ResourceConfig,
  ResourceName,
  Sensor,
  Servo,
} from "../../../core/index.js";
