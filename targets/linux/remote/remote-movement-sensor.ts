// A movement sensor served elsewhere, through
// viam.component.movementsensor.v1.MovementSensorService. A message the peer leaves out reads as
// protobuf's default (zeros); float fields (altitude, accuracy) come back as the shortest decimal
// of the float sent.
import { createClient, type Transport } from "@connectrpc/connect";
import type { MovementSensor, Orientation, ResourceName, Vector3 } from "../../../core/index.js";
import { MovementSensorService, type GetAccuracyResponse } from "../../../proto/gen/component/movementsensor/v1/movementsensor_pb.js";
import { createRemoteCaller, remoteDoCommand, remoteGetReadings } from "./remote-caller.js";
import { fromFloat32 } from "./wire-values.js";

function vector(v: Vector3 | undefined): Vector3 {
  return { x: v?.x ?? 0, y: v?.y ?? 0, z: v?.z ?? 0 };
}

function orientation(o: Orientation | undefined): Orientation {
  return { oX: o?.oX ?? 0, oY: o?.oY ?? 0, oZ: o?.oZ ?? 0, theta: o?.theta ?? 0 };
}

/** Every figure of the map, plus the ones a peer sends only in their own fields. */
function accuracy(answer: GetAccuracyResponse): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of Object.keys(answer.accuracy)) out[key] = fromFloat32(answer.accuracy[key]!);
  const named: Array<[string, number | undefined]> = [
    ["position_hdop", answer.positionHdop],
    ["position_vdop", answer.positionVdop],
    ["compass_degrees_error", answer.compassDegreesError],
  ];
  for (const [key, value] of named) if (value !== undefined && !(key in out)) out[key] = fromFloat32(value);
  if (answer.positionNmeaGgaFix !== undefined && !("position_nmea_gga_fix" in out)) out.position_nmea_gga_fix = answer.positionNmeaGgaFix;
  return out;
}

export function createRemoteMovementSensor(name: ResourceName, transport: Transport): MovementSensor {
  const client = createClient(MovementSensorService, transport);
  const caller = createRemoteCaller(name);
  const target = caller.target;
  const request = (extra: Record<string, unknown> | undefined) => ({ name: target, extra: caller.extra(extra) });
  return {
    name,
    getLinearVelocity: (extra) => caller.call("GetLinearVelocity", async () => vector((await client.getLinearVelocity(request(extra))).linearVelocity)),
    getAngularVelocity: (extra) => caller.call("GetAngularVelocity", async () => vector((await client.getAngularVelocity(request(extra))).angularVelocity)),
    getCompassHeading: (extra) => caller.call("GetCompassHeading", async () => (await client.getCompassHeading(request(extra))).value),
    getOrientation: (extra) => caller.call("GetOrientation", async () => orientation((await client.getOrientation(request(extra))).orientation)),
    getPosition: (extra) =>
      caller.call("GetPosition", async () => {
        const answer = await client.getPosition(request(extra));
        const point = answer.coordinate;
        return { coordinate: { latitude: point?.latitude ?? 0, longitude: point?.longitude ?? 0 }, altitudeM: fromFloat32(answer.altitudeM) };
      }),
    getProperties: (extra) =>
      caller.call("GetProperties", async () => {
        const p = await client.getProperties(request(extra));
        return {
          linearVelocitySupported: p.linearVelocitySupported,
          angularVelocitySupported: p.angularVelocitySupported,
          orientationSupported: p.orientationSupported,
          positionSupported: p.positionSupported,
          compassHeadingSupported: p.compassHeadingSupported,
          linearAccelerationSupported: p.linearAccelerationSupported,
        };
      }),
    getAccuracy: (extra) => caller.call("GetAccuracy", async () => accuracy(await client.getAccuracy(request(extra)))),
    getLinearAcceleration: (extra) =>
      caller.call("GetLinearAcceleration", async () => vector((await client.getLinearAcceleration(request(extra))).linearAcceleration)),
    getReadings: remoteGetReadings(caller, client),
    doCommand: remoteDoCommand(caller, client),
    close: caller.close,
  };
}
