// viam.component.servo.v1.ServoService: angles in whole degrees (uint32 on the wire). Move marks
// the servo as driven by the call's session, waits for it to arrive, and stops it if the call
// is cancelled.
import type { ServoService } from "../../../proto/gen/component/servo/v1/servo_pb.js";
import { SERVO_API, type Servo } from "../../components/index.js";
import type { ResourceLookup } from "../resource-lookup.js";
import { driveUntilDone } from "./actuation.js";
import type { ServiceHandlers } from "./handler-types.js";
import { resolve } from "./resolve-resource.js";
import { doCommandMethod, geometriesUnsupportedMethod } from "./shared-methods.js";

export function createServoService(lookup: ResourceLookup): ServiceHandlers<typeof ServoService> {
  const servo = (name: string, method: keyof Servo & string, rpc: string) => resolve<Servo>(lookup, SERVO_API, name, method, rpc);
  return {
    async move(request, call) {
      const s = servo(request.name, "move", "Move");
      await driveUntilDone(call, s, "Move", () => s.move(request.angleDeg, request.extra));
      return {};
    },
    async getPosition(request) {
      const angle = await servo(request.name, "getPosition", "GetPosition").getPosition(request.extra);
      // uint32 on the wire: a servo's angle is never below 0.
      return { positionDeg: Math.max(0, Math.round(angle)) };
    },
    async stop(request) {
      await servo(request.name, "stop", "Stop").stop(request.extra);
      return {};
    },
    async isMoving(request) {
      return { isMoving: await servo(request.name, "isMoving", "IsMoving").isMoving() };
    },
    doCommand: doCommandMethod(lookup, SERVO_API),
    getGeometries: geometriesUnsupportedMethod(lookup, SERVO_API),
  };
}
