// A servo served elsewhere, through viam.component.servo.v1.ServoService. The wire carries whole
// degrees (uint32): an angle that is not one is refused here, before anything is sent.
import { createClient, type Transport } from "@connectrpc/connect";
import type { ResourceName, Servo } from "../../../core/index.js";
import { ServoService } from "../../../proto/gen/component/servo/v1/servo_pb.js";
import { createRemoteCaller, remoteDoCommand } from "./remote-caller.js";
import { UINT32_MAX, wireInteger } from "./wire-values.js";

export function createRemoteServo(name: ResourceName, transport: Transport): Servo {
  const client = createClient(ServoService, transport);
  const caller = createRemoteCaller(name);
  const target = caller.target;
  return {
    name,
    move: (angleDeg, extra) =>
      caller.call("Move", async () => {
        const angle = wireInteger(angleDeg, "angle_deg", 0, UINT32_MAX);
        await client.move({ name: target, angleDeg: angle, extra: caller.extra(extra) });
      }),
    getPosition: (extra) => caller.call("GetPosition", async () => (await client.getPosition({ name: target, extra: caller.extra(extra) })).positionDeg),
    stop: (extra) => caller.call("Stop", async () => void (await client.stop({ name: target, extra: caller.extra(extra) }))),
    isMoving: () => caller.call("IsMoving", async () => (await client.isMoving({ name: target })).isMoving),
    doCommand: remoteDoCommand(caller, client),
    close: caller.close,
  };
}
