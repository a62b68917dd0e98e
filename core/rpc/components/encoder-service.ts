// viam.component.encoder.v1.EncoderService: a position in ticks or degrees, and which of the two
// the encoder supports. The wire's PositionType enum maps to the API's position type by name.
import type { EncoderService, PositionType } from "../../../proto/gen/component/encoder/v1/encoder_pb.js";
import { ENCODER_API, type Encoder, type EncoderPositionType } from "../../components/index.js";
import type { ResourceLookup } from "../resource-lookup.js";
import type { ServiceHandlers } from "./handler-types.js";
import { invalidArgument, resolve } from "./resolve-resource.js";
import { doCommandMethod, geometriesUnsupportedMethod } from "./shared-methods.js";

// By wire number: POSITION_TYPE_UNSPECIFIED, POSITION_TYPE_TICKS_COUNT, POSITION_TYPE_ANGLE_DEGREES.
const positionTypes: readonly EncoderPositionType[] = ["unspecified", "ticks_count", "angle_degrees"];

function fromWire(type: PositionType | undefined): EncoderPositionType {
  if (type === undefined) return "unspecified";
  const known = positionTypes[type];
  if (known === undefined) throw invalidArgument("position_type", `${type} is not a position type (0 unspecified, 1 ticks, 2 degrees)`);
  return known;
}

function toWire(type: EncoderPositionType): PositionType {
  const n = positionTypes.indexOf(type);
  return (n < 0 ? 0 : n) as PositionType;
}

export function createEncoderService(lookup: ResourceLookup): ServiceHandlers<typeof EncoderService> {
  const encoder = (name: string, method: keyof Encoder & string, rpc: string) => resolve<Encoder>(lookup, ENCODER_API, name, method, rpc);
  return {
    async getPosition(request) {
      const e = encoder(request.name, "getPosition", "GetPosition");
      const position = await e.getPosition(fromWire(request.positionType), request.extra);
      return { value: position.value, positionType: toWire(position.positionType) };
    },
    async resetPosition(request) {
      await encoder(request.name, "resetPosition", "ResetPosition").resetPosition(request.extra);
      return {};
    },
    async getProperties(request) {
      const properties = await encoder(request.name, "getProperties", "GetProperties").getProperties(request.extra);
      return { ticksCountSupported: properties.ticksCountSupported, angleDegreesSupported: properties.angleDegreesSupported };
    },
    doCommand: doCommandMethod(lookup, ENCODER_API),
    getGeometries: geometriesUnsupportedMethod(lookup, ENCODER_API),
  };
}
