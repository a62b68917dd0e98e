// An encoder served elsewhere, through viam.component.encoder.v1.EncoderService. The position
// type travels as the wire's enum; the value is a float on the wire and comes back as the
// shortest decimal of that float.
import { createClient, type Transport } from "@connectrpc/connect";
import { Code, SvcError, type Encoder, type EncoderPositionType, type ResourceName } from "../../../core/index.js";
import { EncoderService, PositionType } from "../../../proto/gen/component/encoder/v1/encoder_pb.js";
import { createRemoteCaller, remoteDoCommand } from "./remote-caller.js";
import { fromFloat32 } from "./wire-values.js";

const toWire: Record<EncoderPositionType, PositionType> = {
  unspecified: PositionType.UNSPECIFIED,
  ticks_count: PositionType.TICKS_COUNT,
  angle_degrees: PositionType.ANGLE_DEGREES,
};

function fromWire(type: PositionType): EncoderPositionType {
  if (type === PositionType.TICKS_COUNT) return "ticks_count";
  if (type === PositionType.ANGLE_DEGREES) return "angle_degrees";
  return "unspecified";
}

export function createRemoteEncoder(name: ResourceName, transport: Transport): Encoder {
  const client = createClient(EncoderService, transport);
  const caller = createRemoteCaller(name);
  const target = caller.target;
  return {
    name,
    getPosition: (positionType = "unspecified", extra) =>
      caller.call("GetPosition", async () => {
        if (!Object.prototype.hasOwnProperty.call(toWire, positionType)) {
          throw new SvcError(Code.InvalidArgument, `position_type: ${JSON.stringify(positionType)} is not one of unspecified, ticks_count, angle_degrees`);
        }
        const answer = await client.getPosition({ name: target, positionType: toWire[positionType], extra: caller.extra(extra) });
        return { value: fromFloat32(answer.value), positionType: fromWire(answer.positionType) };
      }),
    resetPosition: (extra) => caller.call("ResetPosition", async () => void (await client.resetPosition({ name: target, extra: caller.extra(extra) }))),
    getProperties: (extra) =>
      caller.call("GetProperties", async () => {
        const answer = await client.getProperties({ name: target, extra: caller.extra(extra) });
        return { ticksCountSupported: answer.ticksCountSupported, angleDegreesSupported: answer.angleDegreesSupported };
      }),
    doCommand: remoteDoCommand(caller, client),
    close: caller.close,
  };
}
