// viam.component.base.v1.BaseService: distances in millimetres, angles in degrees, power -1..1.
// MoveStraight, Spin, SetPower and SetVelocity mark the base as driven by the call's session;
// MoveStraight and Spin wait for the motion and stop the base if the call is cancelled. Only
// svc-server serves it (the table's base row is a Linux row): its Linux column imports this file,
// which no public face of the core exports, so the MCU's core never carries it.
import type { BaseService } from "../../../proto/gen/component/base/v1/base_pb.js";
import type { Base } from "../../components/base/index.js";
import { BASE_API, type Vector3 } from "../../components/index.js";
import type { ResourceLookup } from "../resource-lookup.js";
import { drive, driveUntilDone } from "./actuation.js";
import type { ServiceHandlers } from "./handler-types.js";
import { resolve } from "./resolve-resource.js";
import { doCommandMethod, geometriesUnsupportedMethod } from "./shared-methods.js";

/** A vector the request left out is no motion along any axis. */
const vector = (v: Vector3 | undefined): Vector3 => ({ x: v?.x ?? 0, y: v?.y ?? 0, z: v?.z ?? 0 });

export function createBaseService(lookup: ResourceLookup): ServiceHandlers<typeof BaseService> {
  const base = (name: string, method: keyof Base & string, rpc: string) => resolve<Base>(lookup, BASE_API, name, method, rpc);
  return {
    async moveStraight(request, call) {
      const b = base(request.name, "moveStraight", "MoveStraight");
      await driveUntilDone(call, b, "MoveStraight", () => b.moveStraight(Number(request.distanceMm), request.mmPerSec, request.extra));
      return {};
    },
    async spin(request, call) {
      const b = base(request.name, "spin", "Spin");
      await driveUntilDone(call, b, "Spin", () => b.spin(request.angleDeg, request.degsPerSec, request.extra));
      return {};
    },
    async setPower(request, call) {
      const b = base(request.name, "setPower", "SetPower");
      await drive(call, b, () => b.setPower(vector(request.linear), vector(request.angular), request.extra));
      return {};
    },
    async setVelocity(request, call) {
      const b = base(request.name, "setVelocity", "SetVelocity");
      await drive(call, b, () => b.setVelocity(vector(request.linear), vector(request.angular), request.extra));
      return {};
    },
    async stop(request) {
      await base(request.name, "stop", "Stop").stop(request.extra);
      return {};
    },
    async isMoving(request) {
      return { isMoving: await base(request.name, "isMoving", "IsMoving").isMoving() };
    },
    async getProperties(request) {
      const p = await base(request.name, "getProperties", "GetProperties").getProperties(request.extra);
      return { widthMeters: p.widthMeters, turningRadiusMeters: p.turningRadiusMeters, wheelCircumferenceMeters: p.wheelCircumferenceMeters };
    },
    doCommand: doCommandMethod(lookup, BASE_API),
    getGeometries: geometriesUnsupportedMethod(lookup, BASE_API),
  };
}
