// viam.component.movementsensor.v1.MovementSensorService: velocities (m/s, deg/s), compass
// heading (degrees from north), orientation, GPS position and altitude (m), acceleration (m/s²),
// which of these the sensor supports, its accuracy figures, readings, DoCommand.
import type { MovementSensorService } from "../../../proto/gen/component/movementsensor/v1/movementsensor_pb.js";
import { MOVEMENT_SENSOR_API, type MovementSensor } from "../../components/index.js";
import type { ResourceLookup } from "../resource-lookup.js";
import type { ServiceHandlers } from "./handler-types.js";
import { resolve } from "./resolve-resource.js";
import { doCommandMethod, geometriesUnsupportedMethod, readingsMethod } from "./shared-methods.js";

interface AccuracyAnswer {
  accuracy: { [key: string]: number };
  positionHdop?: number;
  positionVdop?: number;
  positionNmeaGgaFix?: number;
  compassDegreesError?: number;
}

/** Every figure goes in the map; the ones the wire names also fill their own fields. */
function accuracyAnswer(figures: Record<string, number>): AccuracyAnswer {
  const out: AccuracyAnswer = { accuracy: {} };
  for (const key of Object.keys(figures)) {
    const value = figures[key];
    if (typeof value !== "number") continue;
    out.accuracy[key] = value;
    if (key === "position_hdop") out.positionHdop = value;
    else if (key === "position_vdop") out.positionVdop = value;
    else if (key === "position_nmea_gga_fix") out.positionNmeaGgaFix = Math.round(value);
    else if (key === "compass_degrees_error") out.compassDegreesError = value;
  }
  return out;
}

export function createMovementSensorService(lookup: ResourceLookup): ServiceHandlers<typeof MovementSensorService> {
  const sensor = (name: string, method: keyof MovementSensor & string, rpc: string) =>
    resolve<MovementSensor>(lookup, MOVEMENT_SENSOR_API, name, method, rpc);
  return {
    async getLinearVelocity(request) {
      const v = await sensor(request.name, "getLinearVelocity", "GetLinearVelocity").getLinearVelocity(request.extra);
      return { linearVelocity: { x: v.x, y: v.y, z: v.z } };
    },
    async getAngularVelocity(request) {
      const v = await sensor(request.name, "getAngularVelocity", "GetAngularVelocity").getAngularVelocity(request.extra);
      return { angularVelocity: { x: v.x, y: v.y, z: v.z } };
    },
    async getCompassHeading(request) {
      return { value: await sensor(request.name, "getCompassHeading", "GetCompassHeading").getCompassHeading(request.extra) };
    },
    async getOrientation(request) {
      const o = await sensor(request.name, "getOrientation", "GetOrientation").getOrientation(request.extra);
      return { orientation: { oX: o.oX, oY: o.oY, oZ: o.oZ, theta: o.theta } };
    },
    async getPosition(request) {
      const p = await sensor(request.name, "getPosition", "GetPosition").getPosition(request.extra);
      return { coordinate: { latitude: p.coordinate.latitude, longitude: p.coordinate.longitude }, altitudeM: p.altitudeM };
    },
    async getProperties(request) {
      const p = await sensor(request.name, "getProperties", "GetProperties").getProperties(request.extra);
      return {
        linearVelocitySupported: p.linearVelocitySupported,
        angularVelocitySupported: p.angularVelocitySupported,
        orientationSupported: p.orientationSupported,
        positionSupported: p.positionSupported,
        compassHeadingSupported: p.compassHeadingSupported,
        linearAccelerationSupported: p.linearAccelerationSupported,
      };
    },
    async getAccuracy(request) {
      return accuracyAnswer(await sensor(request.name, "getAccuracy", "GetAccuracy").getAccuracy(request.extra));
    },
    async getLinearAcceleration(request) {
      const a = await sensor(request.name, "getLinearAcceleration", "GetLinearAcceleration").getLinearAcceleration(request.extra);
      return { linearAcceleration: { x: a.x, y: a.y, z: a.z } };
    },
    doCommand: doCommandMethod(lookup, MOVEMENT_SENSOR_API),
    getGeometries: geometriesUnsupportedMethod(lookup, MOVEMENT_SENSOR_API),
    getReadings: readingsMethod(lookup, MOVEMENT_SENSOR_API),
  };
}
