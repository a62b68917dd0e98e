// The one table of the resource APIs svc serves: one row per API, with its triplet, its protobuf
// service, the handlers the core serves it with, and the targets that serve it. Everything that
// lists APIs derives from here: svc-server's registration and its remote clients (with the
// Linux columns, targets/linux/remote/linux-api-table.ts), ResourceRPCSubtypes, the MCU's
// dispatcher and the wire tables its codec is generated with (tools/gen/wire-tables.gen.mjs).
// The MCU keeps only the rows that fit its budget. An API only Linux serves may leave its
// handlers to that target (the camera: its images need an encoder), so that the MCU's bundle
// never carries them. RobotService and AuthService are the machine's own services, not resource
// APIs, and are not rows.
import type { DescService } from "@bufbuild/protobuf";
import type { ArmService } from "../../proto/gen/component/arm/v1/arm_pb.js";
import type { GantryService } from "../../proto/gen/component/gantry/v1/gantry_pb.js";
import type { GripperService } from "../../proto/gen/component/gripper/v1/gripper_pb.js";
import type { BaseService } from "../../proto/gen/component/base/v1/base_pb.js";
import type { CameraService } from "../../proto/gen/component/camera/v1/camera_pb.js";
import type { InputControllerService } from "../../proto/gen/component/inputcontroller/v1/input_controller_pb.js";
import type { DataManagerService } from "../../proto/gen/service/datamanager/v1/data_manager_pb.js";
import type { VisionService } from "../../proto/gen/service/vision/v1/vision_pb.js";
import type { NavigationService } from "../../proto/gen/service/navigation/v1/navigation_pb.js";
import type { SLAMService } from "../../proto/gen/service/slam/v1/slam_pb.js";
import type { MotionService } from "../../proto/gen/service/motion/v1/motion_pb.js";
import type { AudioInService } from "../../proto/gen/component/audioin/v1/audioin_pb.js";
import type { AudioOutService } from "../../proto/gen/component/audioout/v1/audioout_pb.js";
import {
  ARM_API,
  AUDIO_IN_API,
  AUDIO_OUT_API,
  BASE_API,
  BOARD_API,
  CAMERA_API,
  DATA_MANAGER_API,
  ENCODER_API,
  GANTRY_API,
  GENERIC_COMPONENT_API,
  GENERIC_SERVICE_API,
  GRIPPER_API,
  INPUT_CONTROLLER_API,
  MOTION_API,
  MOTOR_API,
  MOVEMENT_SENSOR_API,
  NAVIGATION_API,
  POWER_SENSOR_API,
  SENSOR_API,
  SERVO_API,
  SLAM_API,
  VISION_API,
} from "../components/index.js";
import { createBoardService } from "./components/board-service.js";
import { createEncoderService } from "./components/encoder-service.js";
import { createGenericComponentService } from "./components/generic-component-service.js";
import { createGenericServiceService } from "./components/generic-service-service.js";
import type { ServiceHandlers } from "./components/handler-types.js";
import { createMotorService } from "./components/motor-service.js";
import { createMovementSensorService } from "./components/movement-sensor-service.js";
import { createPowerSensorService } from "./components/power-sensor-service.js";
import { createSensorService } from "./components/sensor-service.js";
import { createServoService } from "./components/servo-service.js";
import type { ResourceLookup } from "./resource-lookup.js";

/** Where an API is served: svc-server (and modules) on Linux, svc-mcu in XS. */
export type ServingTarget = "linux" | "mcu";

type Handlers<S extends DescService> = (lookup: ResourceLookup) => ServiceHandlers<S>;

// Type only: what carries a row's descriptor type to the columns a target adds.
declare const serviceType: unique symbol;

/** One row: an API and how it is served. `S` is its generated service descriptor's type. */
export interface ServedApi<S extends DescService = DescService, T extends ServingTarget = ServingTarget> {
  /** The triplet resources of this API carry: "rdk:component:sensor". */
  readonly api: string;
  /** The protobuf service's full name: "viam.component.sensor.v1.SensorService". */
  readonly service: string;
  /** The core's handlers over a resource lookup, one per method of the service; absent when the target supplies them. */
  readonly handlers?: Handlers<S>;
  readonly targets: readonly T[];
  /** Never set: the generated descriptor's type, which a target's descriptor column must match. */
  readonly [serviceType]?: S;
}

/** A row the core serves: its handlers are the core's. */
function row<S extends DescService, const T extends ServingTarget>(served: ServedApi<S, T> & { handlers: Handlers<S> }): ServedApi<S, T> & { handlers: Handlers<S> } {
  return served;
}

/** A row only Linux serves, with handlers of its own (the Linux columns give them). */
function linuxRow<S extends DescService>(served: Omit<ServedApi<S, "linux">, "handlers">): ServedApi<S, "linux"> & { handlers?: undefined } {
  return served;
}

/** The table, by a short key the target columns use. */
export const apiTable = {
  sensor: row({ api: SENSOR_API, service: "viam.component.sensor.v1.SensorService", handlers: createSensorService, targets: ["linux", "mcu"] }),
  board: row({ api: BOARD_API, service: "viam.component.board.v1.BoardService", handlers: createBoardService, targets: ["linux", "mcu"] }),
  motor: row({ api: MOTOR_API, service: "viam.component.motor.v1.MotorService", handlers: createMotorService, targets: ["linux", "mcu"] }),
  servo: row({ api: SERVO_API, service: "viam.component.servo.v1.ServoService", handlers: createServoService, targets: ["linux", "mcu"] }),
  encoder: row({ api: ENCODER_API, service: "viam.component.encoder.v1.EncoderService", handlers: createEncoderService, targets: ["linux", "mcu"] }),
  movementSensor: row({
    api: MOVEMENT_SENSOR_API,
    service: "viam.component.movementsensor.v1.MovementSensorService",
    handlers: createMovementSensorService,
    targets: ["linux", "mcu"],
  }),
  powerSensor: row({
    api: POWER_SENSOR_API,
    service: "viam.component.powersensor.v1.PowerSensorService",
    handlers: createPowerSensorService,
    targets: ["linux", "mcu"],
  }),
  genericComponent: row({
    api: GENERIC_COMPONENT_API,
    service: "viam.component.generic.v1.GenericService",
    handlers: createGenericComponentService,
    targets: ["linux", "mcu"],
  }),
  genericService: row({
    api: GENERIC_SERVICE_API,
    service: "viam.service.generic.v1.GenericService",
    handlers: createGenericServiceService,
    targets: ["linux", "mcu"],
  }),
  camera: linuxRow<typeof CameraService>({ api: CAMERA_API, service: "viam.component.camera.v1.CameraService", targets: ["linux"] }),
  arm: linuxRow<typeof ArmService>({ api: ARM_API, service: "viam.component.arm.v1.ArmService", targets: ["linux"] }),
  gripper: linuxRow<typeof GripperService>({ api: GRIPPER_API, service: "viam.component.gripper.v1.GripperService", targets: ["linux"] }),
  gantry: linuxRow<typeof GantryService>({ api: GANTRY_API, service: "viam.component.gantry.v1.GantryService", targets: ["linux"] }),
  inputController: linuxRow<typeof InputControllerService>({
    api: INPUT_CONTROLLER_API,
    service: "viam.component.inputcontroller.v1.InputControllerService",
    targets: ["linux"],
  }),
  vision: linuxRow<typeof VisionService>({ api: VISION_API, service: "viam.service.vision.v1.VisionService", targets: ["linux"] }),
  dataManager: linuxRow<typeof DataManagerService>({
    api: DATA_MANAGER_API,
    service: "viam.service.datamanager.v1.DataManagerService",
    targets: ["linux"],
  }),
  base: linuxRow<typeof BaseService>({ api: BASE_API, service: "viam.component.base.v1.BaseService", targets: ["linux"] }),
  navigation: linuxRow<typeof NavigationService>({
    api: NAVIGATION_API,
    service: "viam.service.navigation.v1.NavigationService",
    targets: ["linux"],
  }),
  slam: linuxRow<typeof SLAMService>({ api: SLAM_API, service: "viam.service.slam.v1.SLAMService", targets: ["linux"] }),
  motion: linuxRow<typeof MotionService>({ api: MOTION_API, service: "viam.service.motion.v1.MotionService", targets: ["linux"] }),
  audioIn: linuxRow<typeof AudioInService>({ api: AUDIO_IN_API, service: "viam.component.audioin.v1.AudioInService", targets: ["linux"] }),
  audioOut: linuxRow<typeof AudioOutService>({ api: AUDIO_OUT_API, service: "viam.component.audioout.v1.AudioOutService", targets: ["linux"] }),
};

export type ApiKey = keyof typeof apiTable;

/** The keys of the rows target `T` serves: what its own columns must cover. */
export type ApisOn<T extends ServingTarget> = {
  [K in ApiKey]: (typeof apiTable)[K] extends ServedApi<DescService, infer On> ? (T extends On ? K : never) : never;
}[ApiKey];

/** The keys of the rows whose handlers a target supplies. */
export type ApisWithTargetHandlers = {
  [K in ApiKey]: (typeof apiTable)[K]["handlers"] extends undefined ? K : never;
}[ApiKey];

/** The generated service descriptor type of row `K`. */
export type ServiceOf<K extends ApiKey> = NonNullable<(typeof apiTable)[K][typeof serviceType]>;

const rows: ReadonlyArray<readonly [ApiKey, ServedApi]> = Object.keys(apiTable).map((key) => [key as ApiKey, apiTable[key as ApiKey] as ServedApi]);

/** The rows `target` serves, with their keys, in table order. */
export function apisServedOn(target: ServingTarget): Array<readonly [ApiKey, ServedApi]> {
  return rows.filter(([, served]) => served.targets.includes(target));
}

const byApi: ReadonlyMap<string, ServedApi> = new Map(rows.map(([, served]) => [served.api, served]));

/** The row of an API triplet (`rdk:component:motor`), if svc serves it anywhere. */
export function servedApiOf(api: string): ServedApi | undefined {
  return byApi.get(api);
}

/** The protobuf service of an API triplet, as ResourceRPCSubtypes announces it, if svc serves it. */
export function protoServiceOf(api: string): string | undefined {
  return servedApiOf(api)?.service;
}
