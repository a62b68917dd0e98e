// viam.component.motor.v1.MotorService: power from -1 to 1, speeds in revolutions per minute,
// positions in revolutions. SetPower, GoFor, GoTo and SetRPM mark the motor as driven by the
// call's session; GoFor and GoTo wait for the motion and stop the motor if the call is cancelled.
import type { MotorService } from "../../../proto/gen/component/motor/v1/motor_pb.js";
import { MOTOR_API, type Motor } from "../../components/index.js";
import type { ResourceLookup } from "../resource-lookup.js";
import { drive, driveUntilDone } from "./actuation.js";
import type { ServiceHandlers } from "./handler-types.js";
import { resolve } from "./resolve-resource.js";
import { doCommandMethod, geometriesUnsupportedMethod } from "./shared-methods.js";

export function createMotorService(lookup: ResourceLookup): ServiceHandlers<typeof MotorService> {
  const motor = (name: string, method: keyof Motor & string, rpc: string) => resolve<Motor>(lookup, MOTOR_API, name, method, rpc);
  return {
    async setPower(request, call) {
      const m = motor(request.name, "setPower", "SetPower");
      await drive(call, m, () => m.setPower(request.powerPct, request.extra));
      return {};
    },
    async goFor(request, call) {
      const m = motor(request.name, "goFor", "GoFor");
      await driveUntilDone(call, m, "GoFor", () => m.goFor(request.rpm, request.revolutions, request.extra));
      return {};
    },
    async goTo(request, call) {
      const m = motor(request.name, "goTo", "GoTo");
      await driveUntilDone(call, m, "GoTo", () => m.goTo(request.rpm, request.positionRevolutions, request.extra));
      return {};
    },
    async setRPM(request, call) {
      const m = motor(request.name, "setRPM", "SetRPM");
      await drive(call, m, () => m.setRPM(request.rpm, request.extra));
      return {};
    },
    async resetZeroPosition(request) {
      await motor(request.name, "resetZeroPosition", "ResetZeroPosition").resetZeroPosition(request.offset, request.extra);
      return {};
    },
    async getPosition(request) {
      return { position: await motor(request.name, "getPosition", "GetPosition").getPosition(request.extra) };
    },
    async getProperties(request) {
      const properties = await motor(request.name, "getProperties", "GetProperties").getProperties(request.extra);
      return { positionReporting: properties.positionReporting };
    },
    async stop(request) {
      await motor(request.name, "stop", "Stop").stop(request.extra);
      return {};
    },
    async isPowered(request) {
      const state = await motor(request.name, "isPowered", "IsPowered").isPowered(request.extra);
      return { isOn: state.isOn, powerPct: state.powerPct };
    },
    async isMoving(request) {
      return { isMoving: await motor(request.name, "isMoving", "IsMoving").isMoving() };
    },
    doCommand: doCommandMethod(lookup, MOTOR_API),
    getGeometries: geometriesUnsupportedMethod(lookup, MOTOR_API),
  };
}
