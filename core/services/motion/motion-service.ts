// viam.service.motion.v1.MotionService: GetPose through the machine's frame system, the plans
// (listed, read, stopped), and DoCommand. Move, MoveOnMap and MoveOnGlobe ask for a motion plan,
// which svc-server does not make: they answer UNIMPLEMENTED, saying so. A component named only
// in the deprecated ResourceName field is read from there, as older clients send it.
import type { ResourceName } from "../../../proto/gen/common/v1/common_pb.js";
import type { MotionService } from "../../../proto/gen/service/motion/v1/motion_pb.js";
import { MOTION_API } from "../../components/index.js";
import { Code, SvcError } from "../../errors/index.js";
import { formatResourceName } from "../../resource/index.js";
import { doCommandMethod, resolveResource, type ResourceLookup, type ServiceHandlers } from "../../rpc/index.js";
import type { Motion } from "./motion.js";

/** The component a request names: `component_name`, else the deprecated ResourceName's name. */
function componentOf(request: { componentName: string; componentNameDeprecated?: ResourceName }): string {
  const name = request.componentName || request.componentNameDeprecated?.name || "";
  if (name === "") throw new SvcError(Code.InvalidArgument, "component_name: is required: the component's name");
  return name;
}

export function createMotionService(lookup: ResourceLookup): ServiceHandlers<typeof MotionService> {
  const motion = (name: string, method: keyof Motion & string, rpc: string) => resolveResource<Motion>(lookup, MOTION_API, name, method, rpc);
  // The service is looked up first, so a motion service that is not there is NOT_FOUND.
  const noPlanning = (name: string, rpc: string) => {
    const service = lookup.resource(MOTION_API, name);
    return new SvcError(Code.Unimplemented, `${formatResourceName(service.name)} does not support ${rpc}: svc-server plans no motion (GetPose, ListPlanStatuses, GetPlan, StopPlan and DoCommand are served)`);
  };
  return {
    async move(request) {
      throw noPlanning(request.name, "Move");
    },
    async moveOnMap(request) {
      throw noPlanning(request.name, "MoveOnMap");
    },
    async moveOnGlobe(request) {
      throw noPlanning(request.name, "MoveOnGlobe");
    },
    async getPose(request) {
      const service = motion(request.name, "getPose", "GetPose");
      const component = componentOf(request);
      const pose = await service.getPose(component, request.destinationFrame, request.supplementalTransforms, request.extra);
      return { pose };
    },
    async stopPlan(request) {
      const service = motion(request.name, "stopPlan", "StopPlan");
      await service.stopPlan(componentOf(request), request.extra);
      return {};
    },
    async listPlanStatuses(request) {
      const service = motion(request.name, "listPlanStatuses", "ListPlanStatuses");
      return { planStatusesWithIds: await service.listPlanStatuses(request.onlyActivePlans, request.extra) };
    },
    async getPlan(request) {
      const service = motion(request.name, "getPlan", "GetPlan");
      return await service.getPlan(componentOf(request), request.extra);
    },
    doCommand: doCommandMethod(lookup, MOTION_API),
  };
}
