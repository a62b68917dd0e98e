// Every generated file of proto/gen, and the services they declare.
import type { DescFile, DescService } from "@bufbuild/protobuf";
import * as appAgent from "../../proto/gen/app/agent/v1/agent_pb.js";
import * as appData from "../../proto/gen/app/data/v1/data_pb.js";
import * as appDataSync from "../../proto/gen/app/datasync/v1/data_sync_pb.js";
import * as app from "../../proto/gen/app/v1/app_pb.js";
import * as appRobot from "../../proto/gen/app/v1/robot_pb.js";
import * as common from "../../proto/gen/common/v1/common_pb.js";
import * as arm from "../../proto/gen/component/arm/v1/arm_pb.js";
import * as audioIn from "../../proto/gen/component/audioin/v1/audioin_pb.js";
import * as audioOut from "../../proto/gen/component/audioout/v1/audioout_pb.js";
import * as base from "../../proto/gen/component/base/v1/base_pb.js";
import * as board from "../../proto/gen/component/board/v1/board_pb.js";
import * as camera from "../../proto/gen/component/camera/v1/camera_pb.js";
import * as encoder from "../../proto/gen/component/encoder/v1/encoder_pb.js";
import * as gantry from "../../proto/gen/component/gantry/v1/gantry_pb.js";
import * as genericComponent from "../../proto/gen/component/generic/v1/generic_pb.js";
import * as gripper from "../../proto/gen/component/gripper/v1/gripper_pb.js";
import * as inputController from "../../proto/gen/component/inputcontroller/v1/input_controller_pb.js";
import * as motor from "../../proto/gen/component/motor/v1/motor_pb.js";
import * as movementSensor from "../../proto/gen/component/movementsensor/v1/movementsensor_pb.js";
import * as powerSensor from "../../proto/gen/component/powersensor/v1/powersensor_pb.js";
import * as sensor from "../../proto/gen/component/sensor/v1/sensor_pb.js";
import * as servo from "../../proto/gen/component/servo/v1/servo_pb.js";
import * as module from "../../proto/gen/module/v1/module_pb.js";
import * as auth from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import * as robot from "../../proto/gen/robot/v1/robot_pb.js";
import * as dataManager from "../../proto/gen/service/datamanager/v1/data_manager_pb.js";
import * as genericService from "../../proto/gen/service/generic/v1/generic_pb.js";
import * as motion from "../../proto/gen/service/motion/v1/motion_pb.js";
import * as navigation from "../../proto/gen/service/navigation/v1/navigation_pb.js";
import * as slam from "../../proto/gen/service/slam/v1/slam_pb.js";
import * as vision from "../../proto/gen/service/vision/v1/vision_pb.js";
import * as cloud from "../../proto/gen/svc/cloud/v1/cloud_pb.js";

export const generated = {
  appAgent,
  appData,
  appDataSync,
  app,
  appRobot,
  common,
  arm,
  audioIn,
  audioOut,
  base,
  board,
  camera,
  encoder,
  gantry,
  genericComponent,
  gripper,
  inputController,
  motor,
  movementSensor,
  powerSensor,
  sensor,
  servo,
  module,
  auth,
  robot,
  dataManager,
  genericService,
  motion,
  navigation,
  slam,
  vision,
  cloud,
};

function isDesc<K extends string>(value: unknown, kind: K): value is { kind: K } {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === kind;
}

const exports = Object.values(generated).flatMap((file) => Object.values(file) as unknown[]);

export const ourFiles: DescFile[] = exports.filter((v): v is DescFile => isDesc(v, "file"));
export const ourServices: DescService[] = exports.filter((v): v is DescService => isDesc(v, "service"));
