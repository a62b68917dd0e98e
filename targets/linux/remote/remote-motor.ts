// A motor served elsewhere, through viam.component.motor.v1.MotorService. GoFor and GoTo resolve
// when the serving motor's motion ends (arrived or stopped), as they do locally.
import { createClient, type Transport } from "@connectrpc/connect";
import type { Motor, ResourceName } from "../../../core/index.js";
import { MotorService } from "../../../proto/gen/component/motor/v1/motor_pb.js";
import { createRemoteCaller, remoteDoCommand } from "./remote-caller.js";

export function createRemoteMotor(name: ResourceName, transport: Transport): Motor {
  const client = createClient(MotorService, transport);
  const caller = createRemoteCaller(name);
  const target = caller.target;
  return {
    name,
    setPower: (power, extra) =>
      caller.call("SetPower", async () => void (await client.setPower({ name: target, powerPct: power, extra: caller.extra(extra) }))),
    goFor: (rpm, revolutions, extra) =>
      caller.call("GoFor", async () => void (await client.goFor({ name: target, rpm, revolutions, extra: caller.extra(extra) }))),
    goTo: (rpm, positionRevolutions, extra) =>
      caller.call("GoTo", async () => void (await client.goTo({ name: target, rpm, positionRevolutions, extra: caller.extra(extra) }))),
    setRPM: (rpm, extra) => caller.call("SetRPM", async () => void (await client.setRPM({ name: target, rpm, extra: caller.extra(extra) }))),
    resetZeroPosition: (offset, extra) =>
      caller.call("ResetZeroPosition", async () => void (await client.resetZeroPosition({ name: target, offset, extra: caller.extra(extra) }))),
    getPosition: (extra) => caller.call("GetPosition", async () => (await client.getPosition({ name: target, extra: caller.extra(extra) })).position),
    getProperties: (extra) =>
      caller.call("GetProperties", async () => {
        const answer = await client.getProperties({ name: target, extra: caller.extra(extra) });
        return { positionReporting: answer.positionReporting };
      }),
    isPowered: (extra) =>
      caller.call("IsPowered", async () => {
        const answer = await client.isPowered({ name: target, extra: caller.extra(extra) });
        return { isOn: answer.isOn, powerPct: answer.powerPct };
      }),
    stop: (extra) => caller.call("Stop", async () => void (await client.stop({ name: target, extra: caller.extra(extra) }))),
    isMoving: () => caller.call("IsMoving", async () => (await client.isMoving({ name: target })).isMoving),
    doCommand: remoteDoCommand(caller, client),
    close: caller.close,
  };
}
