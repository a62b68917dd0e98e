// Which gRPC service speaks each resource API, as ResourceRPCSubtypes tells clients. Only the
// APIs svc serves are here; a resource of another API is not announced.
import {
  BOARD_API,
  ENCODER_API,
  GENERIC_COMPONENT_API,
  GENERIC_SERVICE_API,
  MOTOR_API,
  MOVEMENT_SENSOR_API,
  POWER_SENSOR_API,
  SENSOR_API,
  SERVO_API,
} from "../../components/index.js";

const protoServices: Record<string, string> = {
  [BOARD_API]: "viam.component.board.v1.BoardService",
  [ENCODER_API]: "viam.component.encoder.v1.EncoderService",
  [GENERIC_COMPONENT_API]: "viam.component.generic.v1.GenericService",
  [MOTOR_API]: "viam.component.motor.v1.MotorService",
  [MOVEMENT_SENSOR_API]: "viam.component.movementsensor.v1.MovementSensorService",
  [POWER_SENSOR_API]: "viam.component.powersensor.v1.PowerSensorService",
  [SENSOR_API]: "viam.component.sensor.v1.SensorService",
  [SERVO_API]: "viam.component.servo.v1.ServoService",
  [GENERIC_SERVICE_API]: "viam.service.generic.v1.GenericService",
};

/** The fully qualified gRPC service of an API triplet (`rdk:component:motor`), if svc serves it. */
export function protoServiceOf(api: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(protoServices, api) ? protoServices[api] : undefined;
}
