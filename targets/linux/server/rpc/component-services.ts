// Every component and service API svc serves, registered on a connect router over one
// resource lookup: sensor, board, motor, servo, encoder, movement sensor, power sensor, generic
// component, generic service.
import type { DescService } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
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
  createBoardService,
  createEncoderService,
  createGenericComponentService,
  createGenericServiceService,
  createMotorService,
  createMovementSensorService,
  createPowerSensorService,
  createSensorService,
  createServoService,
  type ResourceLookup,
  type ServiceHandlers,
} from "../../../../core/index.js";
import { BoardService } from "../../../../proto/gen/component/board/v1/board_pb.js";
import { EncoderService } from "../../../../proto/gen/component/encoder/v1/encoder_pb.js";
import { GenericService as GenericComponentService } from "../../../../proto/gen/component/generic/v1/generic_pb.js";
import { MotorService } from "../../../../proto/gen/component/motor/v1/motor_pb.js";
import { MovementSensorService } from "../../../../proto/gen/component/movementsensor/v1/movementsensor_pb.js";
import { PowerSensorService } from "../../../../proto/gen/component/powersensor/v1/powersensor_pb.js";
import { SensorService } from "../../../../proto/gen/component/sensor/v1/sensor_pb.js";
import { ServoService } from "../../../../proto/gen/component/servo/v1/servo_pb.js";
import { GenericService as GenericServiceService } from "../../../../proto/gen/service/generic/v1/generic_pb.js";
import type { ConnectCallOptions } from "./connect-call.js";
import { toConnectImpl } from "./connect-impl.js";

function register<S extends DescService>(
  router: ConnectRouter,
  service: S,
  handlers: ServiceHandlers<S>,
  options: ConnectCallOptions,
): void {
  router.service(service, toConnectImpl(service, handlers, options));
}

/** The API each registered service serves, with the service's full protobuf name (for ResourceRPCSubtypes). */
export const componentServiceApis: ReadonlyArray<{ readonly api: string; readonly service: string }> = [
  { api: SENSOR_API, service: SensorService.typeName },
  { api: BOARD_API, service: BoardService.typeName },
  { api: MOTOR_API, service: MotorService.typeName },
  { api: SERVO_API, service: ServoService.typeName },
  { api: ENCODER_API, service: EncoderService.typeName },
  { api: MOVEMENT_SENSOR_API, service: MovementSensorService.typeName },
  { api: POWER_SENSOR_API, service: PowerSensorService.typeName },
  { api: GENERIC_COMPONENT_API, service: GenericComponentService.typeName },
  { api: GENERIC_SERVICE_API, service: GenericServiceService.typeName },
];

export function registerComponentServices(router: ConnectRouter, lookup: ResourceLookup, options: ConnectCallOptions = {}): void {
  register(router, SensorService, createSensorService(lookup), options);
  register(router, BoardService, createBoardService(lookup), options);
  register(router, MotorService, createMotorService(lookup), options);
  register(router, ServoService, createServoService(lookup), options);
  register(router, EncoderService, createEncoderService(lookup), options);
  register(router, MovementSensorService, createMovementSensorService(lookup), options);
  register(router, PowerSensorService, createPowerSensorService(lookup), options);
  register(router, GenericComponentService, createGenericComponentService(lookup), options);
  register(router, GenericServiceService, createGenericServiceService(lookup), options);
}
