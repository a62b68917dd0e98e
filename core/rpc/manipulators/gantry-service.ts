// viam.component.gantry.v1.GantryService: positions, lengths and speeds in millimetres, one value
// per axis. MoveToPosition marks the gantry as driven by the call's session, waits for it to
// arrive and stops it if the call is cancelled.
import type { GantryService } from "../../../proto/gen/component/gantry/v1/gantry_pb.js";
import { GANTRY_API } from "../../components/index.js";
import type { Gantry } from "../../components/manipulators/index.js";
import type { ResourceLookup } from "../resource-lookup.js";
import { driveUntilDone } from "../components/actuation.js";
import type { ServiceHandlers } from "../components/handler-types.js";
import { resolve } from "../components/resolve-resource.js";
import { doCommandMethod, geometriesUnsupportedMethod } from "../components/shared-methods.js";
import { kinematicsMethod } from "./kinematics-method.js";

export function createGantryService(lookup: ResourceLookup): ServiceHandlers<typeof GantryService> {
  const gantry = (name: string, method: keyof Gantry & string, rpc: string) => resolve<Gantry>(lookup, GANTRY_API, name, method, rpc);
  return {
    async getPosition(request) {
      return { positionsMm: await gantry(request.name, "getPosition", "GetPosition").getPosition(request.extra) };
    },
    async moveToPosition(request, call) {
      const g = gantry(request.name, "moveToPosition", "MoveToPosition");
      await driveUntilDone(call, g, "MoveToPosition", () => g.moveToPosition(request.positionsMm, request.speedsMmPerSec, request.extra));
      return {};
    },
    async home(request) {
      return { homed: await gantry(request.name, "home", "Home").home(request.extra) };
    },
    async getLengths(request) {
      return { lengthsMm: await gantry(request.name, "getLengths", "GetLengths").getLengths(request.extra) };
    },
    async stop(request) {
      await gantry(request.name, "stop", "Stop").stop(request.extra);
      return {};
    },
    async isMoving(request) {
      return { isMoving: await gantry(request.name, "isMoving", "IsMoving").isMoving() };
    },
    doCommand: doCommandMethod(lookup, GANTRY_API),
    getKinematics: kinematicsMethod(lookup, GANTRY_API),
    getGeometries: geometriesUnsupportedMethod(lookup, GANTRY_API),
  };
}
