// viam.component.gripper.v1.GripperService: Open and Grab mark the gripper as driven by the
// call's session; Grab answers whether it caught something.
import type { GripperService } from "../../../proto/gen/component/gripper/v1/gripper_pb.js";
import { GRIPPER_API } from "../../components/index.js";
import type { Gripper } from "../../components/manipulators/index.js";
import type { ResourceLookup } from "../resource-lookup.js";
import { drive } from "../components/actuation.js";
import type { ServiceHandlers } from "../components/handler-types.js";
import { resolve, unsupported } from "../components/resolve-resource.js";
import { doCommandMethod, geometriesUnsupportedMethod } from "../components/shared-methods.js";
import { toJsonObject } from "../components/struct-value.js";

export function createGripperService(lookup: ResourceLookup): ServiceHandlers<typeof GripperService> {
  const gripper = (name: string, method: keyof Gripper & string, rpc: string) => resolve<Gripper>(lookup, GRIPPER_API, name, method, rpc);
  return {
    async open(request, call) {
      const g = gripper(request.name, "open", "Open");
      await drive(call, g, () => g.open(request.extra));
      return {};
    },
    async grab(request, call) {
      const g = gripper(request.name, "grab", "Grab");
      return { success: await drive(call, g, () => g.grab(request.extra)) };
    },
    async stop(request) {
      await gripper(request.name, "stop", "Stop").stop(request.extra);
      return {};
    },
    async isMoving(request) {
      return { isMoving: await gripper(request.name, "isMoving", "IsMoving").isMoving() };
    },
    async isHoldingSomething(request) {
      const status = await gripper(request.name, "isHoldingSomething", "IsHoldingSomething").isHoldingSomething(request.extra);
      return { isHoldingSomething: status.holding, meta: toJsonObject(status.meta, "meta") };
    },
    doCommand: doCommandMethod(lookup, GRIPPER_API),
    getGeometries: geometriesUnsupportedMethod(lookup, GRIPPER_API),
    async getKinematics(request) {
      throw unsupported(lookup.resource(GRIPPER_API, request.name), "GetKinematics (its model has no kinematic chain)");
    },
  };
}
