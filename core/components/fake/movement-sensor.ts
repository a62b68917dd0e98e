// The fake movement sensor (rdk:builtin:fake): a device standing still in New York, facing
// 25 degrees east of north, unless the attributes give other values.
import { formatResourceName, type ModelRegistration } from "../../resource/index.js";
import { failOnIssues, readAttributes, type AttributeReader, type Parsed } from "../attributes.js";
import { FAKE_MODEL, MOVEMENT_SENSOR_API } from "../api-names.js";
import type { GeoPosition, MovementSensor, Orientation, Vector3 } from "../apis/movement-sensor.js";

export interface FakeMovementAttributes {
  position: GeoPosition;
  linearVelocity: Vector3;
  angularVelocity: Vector3;
  compassHeading: number;
  orientation: Orientation;
  linearAcceleration: Vector3;
  accuracy: Record<string, number>;
}

const still: Vector3 = { x: 0, y: 0, z: 0 };
const gravity: Vector3 = { x: 0, y: 0, z: 9.81 };

function vector(a: AttributeReader, key: string, fallback: Vector3): Vector3 {
  const v = a.object(key);
  if (!v) return fallback;
  return { x: v.number("x", { default: 0 })!, y: v.number("y", { default: 0 })!, z: v.number("z", { default: 0 })! };
}

function accuracyOf(a: AttributeReader): Record<string, number> {
  const given = a.record("accuracy");
  if (!given) return { position_hdop: 0.9, position_vdop: 1.4, compass_degrees_error: 2 };
  const out: Record<string, number> = {};
  for (const key of Object.keys(given)) {
    const v = given[key];
    if (typeof v === "number" && isFinite(v)) out[key] = v;
    else a.problem(`accuracy.${key}`, "must be a number");
  }
  return out;
}

export function readFakeMovementAttributes(attributes: Record<string, unknown>, path: string): Parsed<FakeMovementAttributes> {
  const a = readAttributes(attributes, path);
  const p = a.object("position");
  const o = a.object("orientation");
  const value: FakeMovementAttributes = {
    position: {
      coordinate: {
        latitude: p?.number("latitude", { min: -90, max: 90, default: 40.7 }) ?? 40.7,
        longitude: p?.number("longitude", { min: -180, max: 180, default: -73.98 }) ?? -73.98,
      },
      altitudeM: a.number("altitude_m", { default: 50.5 })!,
    },
    linearVelocity: vector(a, "linear_velocity", still),
    angularVelocity: vector(a, "angular_velocity", still),
    compassHeading: a.number("compass_heading", { min: 0, max: 360, default: 25 })!,
    orientation: {
      oX: o?.number("o_x", { default: 0 }) ?? 0,
      oY: o?.number("o_y", { default: 0 }) ?? 0,
      oZ: o?.number("o_z", { default: 1 }) ?? 1,
      theta: o?.number("theta", { default: 25 }) ?? 25,
    },
    linearAcceleration: vector(a, "linear_acceleration", gravity),
    accuracy: accuracyOf(a),
  };
  return { value, issues: a.issues };
}

const vectorSchema = { type: "object", properties: { x: { type: "number" }, y: { type: "number" }, z: { type: "number" } } };

export const fakeMovementSensorModel: ModelRegistration<MovementSensor> = {
  api: MOVEMENT_SENSOR_API,
  model: FAKE_MODEL,
  attributesSchema: {
    type: "object",
    properties: {
      position: { type: "object", properties: { latitude: { type: "number" }, longitude: { type: "number" } } },
      altitude_m: { type: "number", default: 50.5 },
      linear_velocity: vectorSchema,
      angular_velocity: vectorSchema,
      compass_heading: { type: "number", minimum: 0, maximum: 360, default: 25 },
      orientation: {
        type: "object",
        properties: { o_x: { type: "number" }, o_y: { type: "number" }, o_z: { type: "number" }, theta: { type: "number" } },
      },
      linear_acceleration: vectorSchema,
      accuracy: { type: "object", additionalProperties: { type: "number" } },
    },
  },
  validate(config, path) {
    return { issues: readFakeMovementAttributes(config.attributes, path).issues };
  },
  async build(ctx) {
    const { value: v, issues } = readFakeMovementAttributes(ctx.config.attributes, formatResourceName(ctx.name));
    failOnIssues(issues);
    // Callers get copies: an answer they change must not change the next one.
    const copy = <T extends object>(value: T): T => ({ ...value });
    return {
      name: ctx.name,
      getLinearVelocity: async () => copy(v.linearVelocity),
      getAngularVelocity: async () => copy(v.angularVelocity),
      getCompassHeading: async () => v.compassHeading,
      getOrientation: async () => copy(v.orientation),
      getPosition: async () => ({ coordinate: copy(v.position.coordinate), altitudeM: v.position.altitudeM }),
      getLinearAcceleration: async () => copy(v.linearAcceleration),
      getAccuracy: async () => copy(v.accuracy),
      async getProperties() {
        return {
          linearVelocitySupported: true,
          angularVelocitySupported: true,
          orientationSupported: true,
          positionSupported: true,
          compassHeadingSupported: true,
          linearAccelerationSupported: true,
        };
      },
      // The reading names of the movement sensor API's readings.
      async getReadings() {
        return {
          position: copy(v.position.coordinate),
          altitude: v.position.altitudeM,
          linear_velocity: copy(v.linearVelocity),
          angular_velocity: copy(v.angularVelocity),
          linear_acceleration: copy(v.linearAcceleration),
          compass: v.compassHeading,
          orientation: copy(v.orientation),
        };
      },
      async doCommand(command) {
        return command;
      },
      async close() {},
    };
  },
};
