// The Linux columns of the table of served APIs (core/rpc/api-table.ts): for every row svc-server
// serves, its generated service descriptor (what connect registers and clients call), the
// client that makes a resource served by another process (a module) look like a built-in one,
// and the handlers of an API Linux serves itself (the camera, the base). The type demands a row
// here for each API the core table serves on Linux, with the descriptor of that row's service,
// and handlers exactly where the core has none.
import type { DescService } from "@bufbuild/protobuf";
import type { Transport } from "@connectrpc/connect";
import {
  apiTable,
  type ApiKey,
  type ApisOn,
  type ApisWithTargetHandlers,
  type Resource,
  type ResourceLookup,
  type ResourceName,
  type ServedApi,
  type ServiceHandlers,
  type ServiceOf,
} from "../../../core/index.js";
import { createBaseService } from "../../../core/rpc/components/base-service.js";
import { BaseService } from "../../../proto/gen/component/base/v1/base_pb.js";
import { createArmService, createGantryService, createGripperService } from "../../../core/rpc/manipulators/index.js";
import { ArmService } from "../../../proto/gen/component/arm/v1/arm_pb.js";
import { CameraService } from "../../../proto/gen/component/camera/v1/camera_pb.js";
import { GantryService } from "../../../proto/gen/component/gantry/v1/gantry_pb.js";
import { GripperService } from "../../../proto/gen/component/gripper/v1/gripper_pb.js";
import { InputControllerService } from "../../../proto/gen/component/inputcontroller/v1/input_controller_pb.js";
import { DataManagerService } from "../../../proto/gen/service/datamanager/v1/data_manager_pb.js";
import { VisionService } from "../../../proto/gen/service/vision/v1/vision_pb.js";
import { createInputControllerService } from "../../../core/rpc/components/input-controller-service.js";
import { BoardService } from "../../../proto/gen/component/board/v1/board_pb.js";
import { EncoderService } from "../../../proto/gen/component/encoder/v1/encoder_pb.js";
import { GenericService as GenericComponentService } from "../../../proto/gen/component/generic/v1/generic_pb.js";
import { MotorService } from "../../../proto/gen/component/motor/v1/motor_pb.js";
import { MovementSensorService } from "../../../proto/gen/component/movementsensor/v1/movementsensor_pb.js";
import { PowerSensorService } from "../../../proto/gen/component/powersensor/v1/powersensor_pb.js";
import { SensorService } from "../../../proto/gen/component/sensor/v1/sensor_pb.js";
import { ServoService } from "../../../proto/gen/component/servo/v1/servo_pb.js";
import { GenericService as GenericServiceService } from "../../../proto/gen/service/generic/v1/generic_pb.js";
import { NavigationService } from "../../../proto/gen/service/navigation/v1/navigation_pb.js";
import { SLAMService } from "../../../proto/gen/service/slam/v1/slam_pb.js";
import { MotionService } from "../../../proto/gen/service/motion/v1/motion_pb.js";
import { AudioInService } from "../../../proto/gen/component/audioin/v1/audioin_pb.js";
import { AudioOutService } from "../../../proto/gen/component/audioout/v1/audioout_pb.js";
import { createAudioInService } from "../../../core/rpc/components/audio-in-service.js";
import { createAudioOutService } from "../../../core/rpc/components/audio-out-service.js";
import {
  createDataManagerService,
  createMotionService,
  createNavigationService,
  createSlamService,
  createVisionService,
} from "../../../core/services/index.js";
import { createCameraService } from "../camera/index.js";
import { createRemoteBoard } from "./remote-board.js";
import { createRemoteEncoder } from "./remote-encoder.js";
import { createRemoteGenericComponent, createRemoteGenericService } from "./remote-generic.js";
import { createRemoteMotor } from "./remote-motor.js";
import { createRemoteMovementSensor } from "./remote-movement-sensor.js";
import { createRemotePowerSensor } from "./remote-power-sensor.js";
import { createRemoteSensor } from "./remote-sensor.js";
import { createRemoteServo } from "./remote-servo.js";

/** A resource of this API served at the other end of `transport`. */
export type RemoteFactory = (name: ResourceName, transport: Transport) => Resource;

type Handlers<K extends ApiKey> = (lookup: ResourceLookup) => ServiceHandlers<ServiceOf<K>>;

export type LinuxApiColumns<K extends ApiKey> = {
  readonly descriptor: ServiceOf<K>;
  /** Absent for an API whose resources cannot come from another process. */
  readonly remote?: RemoteFactory;
} & (K extends ApisWithTargetHandlers ? { readonly handlers: Handlers<K> } : { readonly handlers?: undefined });

export const linuxApiTable: { readonly [K in ApisOn<"linux">]: LinuxApiColumns<K> } = {
  sensor: { descriptor: SensorService, remote: createRemoteSensor },
  board: { descriptor: BoardService, remote: createRemoteBoard },
  motor: { descriptor: MotorService, remote: createRemoteMotor },
  servo: { descriptor: ServoService, remote: createRemoteServo },
  encoder: { descriptor: EncoderService, remote: createRemoteEncoder },
  movementSensor: { descriptor: MovementSensorService, remote: createRemoteMovementSensor },
  powerSensor: { descriptor: PowerSensorService, remote: createRemotePowerSensor },
  genericComponent: { descriptor: GenericComponentService, remote: createRemoteGenericComponent },
  genericService: { descriptor: GenericServiceService, remote: createRemoteGenericService },
  camera: { descriptor: CameraService, handlers: createCameraService },
  arm: { descriptor: ArmService, handlers: createArmService },
  gripper: { descriptor: GripperService, handlers: createGripperService },
  gantry: { descriptor: GantryService, handlers: createGantryService },
  inputController: { descriptor: InputControllerService, handlers: createInputControllerService },
  vision: { descriptor: VisionService, handlers: createVisionService },
  dataManager: { descriptor: DataManagerService, handlers: createDataManagerService },
  navigation: { descriptor: NavigationService, handlers: createNavigationService },
  slam: { descriptor: SLAMService, handlers: createSlamService },
  motion: { descriptor: MotionService, handlers: createMotionService },
  base: { descriptor: BaseService, handlers: createBaseService },
  audioIn: { descriptor: AudioInService, handlers: createAudioInService },
  audioOut: { descriptor: AudioOutService, handlers: createAudioOutService },
};

/** A row svc-server serves, both halves: the core's and Linux's, its handlers from either. */
export interface LinuxServedApi {
  readonly key: ApiKey;
  readonly row: ServedApi;
  readonly descriptor: DescService;
  readonly remote?: RemoteFactory;
  readonly handlers: (lookup: ResourceLookup) => object;
}

/** Every API svc-server serves, in table order. */
export const linuxServedApis: readonly LinuxServedApi[] = Object.freeze(
  (Object.keys(linuxApiTable) as Array<ApisOn<"linux">>).map((key) => {
    const row = apiTable[key] as ServedApi;
    const columns = linuxApiTable[key] as { descriptor: DescService; remote?: RemoteFactory; handlers?: (lookup: ResourceLookup) => object };
    return { key, row, descriptor: columns.descriptor, remote: columns.remote, handlers: (row.handlers ?? columns.handlers)! };
  }),
);
