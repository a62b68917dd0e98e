// viam.component.arm.v1.ArmService: joint values in degrees (millimetres for prismatic joints),
// poses in millimetres with an orientation vector. The moves mark the arm as driven by the
// call's session, wait for it to arrive and stop it if the call is cancelled.
import type { ArmService } from "../../../proto/gen/component/arm/v1/arm_pb.js";
import { ARM_API } from "../../components/index.js";
import type { Arm } from "../../components/manipulators/index.js";
import type { ResourceLookup } from "../resource-lookup.js";
import { driveUntilDone } from "../components/actuation.js";
import type { ServiceHandlers } from "../components/handler-types.js";
import { invalidArgument, resolve } from "../components/resolve-resource.js";
import { doCommandMethod, geometriesUnsupportedMethod } from "../components/shared-methods.js";
import { kinematicsMethod } from "./kinematics-method.js";

export function createArmService(lookup: ResourceLookup): ServiceHandlers<typeof ArmService> {
  const arm = (name: string, method: keyof Arm & string, rpc: string) => resolve<Arm>(lookup, ARM_API, name, method, rpc);
  return {
    async getEndPosition(request) {
      return { pose: await arm(request.name, "getEndPosition", "GetEndPosition").getEndPosition(request.extra) };
    },
    async moveToPosition(request, call) {
      const a = arm(request.name, "moveToPosition", "MoveToPosition");
      const to = request.to;
      if (to === undefined) throw invalidArgument("to", "required: the pose to move to");
      await driveUntilDone(call, a, "MoveToPosition", () => a.moveToPosition(to, request.extra));
      return {};
    },
    async getJointPositions(request) {
      return { positions: { values: await arm(request.name, "getJointPositions", "GetJointPositions").getJointPositions(request.extra) } };
    },
    async moveToJointPositions(request, call) {
      const a = arm(request.name, "moveToJointPositions", "MoveToJointPositions");
      const values = request.positions?.values ?? [];
      await driveUntilDone(call, a, "MoveToJointPositions", () => a.moveToJointPositions(values, request.extra));
      return {};
    },
    async moveThroughJointPositions(request, call) {
      const a = arm(request.name, "moveThroughJointPositions", "MoveThroughJointPositions");
      const positions = request.positions.map((p) => p.values);
      const options = { maxVelDegsPerSec: request.options?.maxVelDegsPerSec };
      await driveUntilDone(call, a, "MoveThroughJointPositions", () => a.moveThroughJointPositions!(positions, options, request.extra));
      return {};
    },
    async stop(request) {
      await arm(request.name, "stop", "Stop").stop(request.extra);
      return {};
    },
    async isMoving(request) {
      return { isMoving: await arm(request.name, "isMoving", "IsMoving").isMoving() };
    },
    doCommand: doCommandMethod(lookup, ARM_API),
    getKinematics: kinematicsMethod(lookup, ARM_API),
    getGeometries: geometriesUnsupportedMethod(lookup, ARM_API),
    async get3DModels(request) {
      return { models: await arm(request.name, "get3DModels", "Get3DModels").get3DModels!(request.extra) };
    },
  };
}
