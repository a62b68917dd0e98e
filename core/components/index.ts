// Public face of core/components: the component and service APIs as TypeScript interfaces, the
// built-in models (fakes of every API, the GPIO motor, the serial line sensor and the INA219)
// and their registration, and the board model hosts register under their own names.
export {
  ARM_API,
  AUDIO_IN_API,
  AUDIO_OUT_API,
  BASE_API,
  BOARD_API,
  CAMERA_API,
  DATA_MANAGER_API,
  ENCODER_API,
  FAKE_MODEL,
  BUILTIN_MODEL,
  GANTRY_API,
  GENERIC_COMPONENT_API,
  GENERIC_SERVICE_API,
  GPIO_MODEL,
  GRIPPER_API,
  INA219_MODEL,
  INPUT_CONTROLLER_API,
  LINUX_BOARD_MODEL,
  MOTION_API,
  MOTOR_API,
  MOVEMENT_SENSOR_API,
  NAVIGATION_API,
  PI_MODEL,
  POWER_SENSOR_API,
  SENSOR_API,
  SERIAL_LINE_MODEL,
  SERVO_API,
  SLAM_API,
  VISION_API,
} from "./api-names.js";
export type { Commandable, Extra } from "./apis/commandable.js";
export { isActuator } from "./apis/actuator.js";
export type { Actuator } from "./apis/actuator.js";
export type { Sensor } from "./apis/sensor.js";
export { isBoard } from "./apis/board.js";
export type { AnalogValue, Board } from "./apis/board.js";
export type { Motor, MotorPowerState, MotorProperties } from "./apis/motor.js";
export type { Servo } from "./apis/servo.js";
export type { Encoder, EncoderPosition, EncoderPositionType, EncoderProperties } from "./apis/encoder.js";
export type {
  GeoPoint,
  GeoPosition,
  MovementSensor,
  MovementSensorProperties,
  Orientation,
  Vector3,
} from "./apis/movement-sensor.js";
export type { PowerSensor } from "./apis/power-sensor.js";
export type { GenericComponent, GenericService } from "./apis/generic.js";
export { isFakeEncoder } from "./fake/encoder.js";
export type { FakeEncoder } from "./fake/encoder.js";
export { boardModel, ANALOG_WRITE_MAX } from "./board/board-model.js";
export type { BoardHostAttributes, BoardModelDefinition, BoardModelOptions } from "./board/board-model.js";
export type { DeviceIOOptions } from "./device-io.js";
// For models a target adds: attributes read with every problem under its configuration path.
export { failOnIssues, readAttributes } from "./attributes.js";
export type { AttributeReader, NumberRule } from "./attributes.js";
export { parseKeyValueLine } from "./serial/key-value-line.js";
export { builtinModels, registerBuiltinModels } from "./register-builtins.js";
export type { BuiltinModelOptions } from "./register-builtins.js";
