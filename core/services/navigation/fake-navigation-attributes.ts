// The fake navigation service's attributes, read with every problem under its configuration path:
// `map_type` as Viam writes it ("GPS", the default, or "None"), the location it reports
// (`location`, `compass_heading`; New York facing 25 degrees east of north unless given, as the
// fake movement sensor), and `obstacles` in Viam's shape: a location and box, sphere or capsule
// geometries centred on it.
import { readAttributes, type AttributeReader, type GeoPoint } from "../../components/index.js";
import type { ConfigIssue } from "../../config/index.js";
import type { GeoObstacle, NavigationMapType, ObstacleShape } from "./navigation.js";

export interface FakeNavigationAttributes {
  mapType: NavigationMapType;
  location: GeoPoint;
  compassHeading: number;
  obstacles: GeoObstacle[];
}

export const DEFAULT_LOCATION: GeoPoint = { latitude: 40.7, longitude: -73.98 };
export const DEFAULT_COMPASS_HEADING = 25;

const mapTypes: Record<string, NavigationMapType> = { GPS: "gps", None: "none" };

function mapTypeOf(a: AttributeReader): NavigationMapType {
  const given = a.string("map_type");
  if (given === undefined) return "gps";
  const mapType = mapTypes[given];
  if (mapType === undefined) a.problem("map_type", `must be "GPS" or "None", not ${JSON.stringify(given)}`);
  return mapType ?? "gps";
}

/** A latitude and longitude, both required; `fallback` where the object is absent. */
function geoPoint(a: AttributeReader, key: string, fallback?: GeoPoint): GeoPoint {
  const p = a.object(key, fallback === undefined);
  if (!p) return fallback ?? { latitude: 0, longitude: 0 };
  return {
    latitude: p.number("latitude", { required: true, min: -90, max: 90 }) ?? 0,
    longitude: p.number("longitude", { required: true, min: -180, max: 180 }) ?? 0,
  };
}

// Without a type, Viam takes the first shape the sizes make: a box (x, y and z), a capsule (r and
// l, at least twice r), a sphere (r).
function inferredType(g: AttributeReader): string | undefined {
  const size = (key: string) => (g.has(key) ? g.number(key) ?? 0 : 0);
  if (size("x") > 0 && size("y") > 0 && size("z") > 0) return "box";
  if (size("r") > 0 && size("l") >= 2 * size("r")) return "capsule";
  if (size("r") > 0) return "sphere";
  g.problem("type", 'must be "box", "sphere" or "capsule", or left out with sizes that say which (x, y and z; r and l; r)');
  return undefined;
}

function shapeOf(g: AttributeReader): ObstacleShape | undefined {
  const size = { required: true, positive: true };
  const type = g.has("type") ? g.string("type", true) : inferredType(g);
  if (type === "box") return { kind: "box", xMm: g.number("x", size) ?? 0, yMm: g.number("y", size) ?? 0, zMm: g.number("z", size) ?? 0 };
  if (type === "sphere") return { kind: "sphere", radiusMm: g.number("r", size) ?? 0 };
  if (type === "capsule") return { kind: "capsule", radiusMm: g.number("r", size) ?? 0, lengthMm: g.number("l", size) ?? 0 };
  if (type !== undefined) g.problem("type", `must be "box", "sphere" or "capsule", not ${JSON.stringify(type)}`);
  return undefined;
}

function obstacleOf(o: AttributeReader): GeoObstacle {
  const geometries: GeoObstacle["geometries"] = [];
  for (const g of o.list("geometries")) {
    // Viam places obstacle geometries on their location: an offset from it is refused there too.
    const offset = g.object("translation_offset");
    if (offset && ["x", "y", "z"].some((axis) => (offset.number(axis, { default: 0 }) ?? 0) !== 0)) {
      g.problem("translation_offset", "must be zero: an obstacle's geometries are centred on its location");
    }
    const shape = shapeOf(g);
    if (shape) geometries.push({ shape, label: g.string("label") ?? "" });
  }
  return { location: geoPoint(o, "location"), geometries };
}

export function readFakeNavigationAttributes(
  attributes: Record<string, unknown>,
  path: string,
  builtin = false,
): { value: FakeNavigationAttributes; issues: ConfigIssue[]; dependencies: string[] } {
  const a = readAttributes(attributes, path);
  const dependencies = builtin ? readBuiltinKeys(a) : [];
  const value: FakeNavigationAttributes = {
    mapType: mapTypeOf(a),
    location: geoPoint(a, "location", DEFAULT_LOCATION),
    // 360 is north again; the wire's headings are in [0, 360).
    compassHeading: a.number("compass_heading", { min: 0, max: 360, default: DEFAULT_COMPASS_HEADING })! % 360,
    obstacles: a.list("obstacles").map(obstacleOf),
  };
  return { value, issues: a.issues, dependencies };
}

/**
 * What Viam's builtin navigation reads beyond the fake's: the base and movement sensor it drives
 * and locates with (dependencies), where it keeps waypoints (memory only here), and its tuning.
 */
function readBuiltinKeys(a: AttributeReader): string[] {
  const store = a.object("store");
  const storeType = store?.string("type") ?? "memory";
  if (store && storeType !== "memory") store.problem("type", `must be "memory": waypoints are kept in memory (found ${JSON.stringify(storeType)})`);
  for (const key of builtinTuning) a.number(key, { min: 0 });
  return ["base", "movement_sensor"].map((key) => a.string(key)).filter((name): name is string => name !== undefined && name !== "");
}

const builtinTuning = [
  "degs_per_sec", "meters_per_sec", "obstacle_polling_frequency_hz", "plan_deviation_m",
  "position_polling_frequency_hz", "replan_cost_factor",
];

const geoPointSchema = {
  type: "object",
  properties: { latitude: { type: "number", minimum: -90, maximum: 90 }, longitude: { type: "number", minimum: -180, maximum: 180 } },
  required: ["latitude", "longitude"],
};

export const fakeNavigationAttributesSchema = {
  type: "object",
  properties: {
    map_type: { type: "string", enum: ["GPS", "None"], default: "GPS", description: "GPS: the service has a location; None: it has none" },
    location: { ...geoPointSchema, description: "where the service says the machine is", default: DEFAULT_LOCATION },
    compass_heading: { type: "number", minimum: 0, maximum: 360, default: DEFAULT_COMPASS_HEADING },
    obstacles: {
      type: "array",
      items: {
        type: "object",
        properties: {
          location: geoPointSchema,
          geometries: {
            type: "array",
            items: {
              type: "object",
              properties: {
                type: { type: "string", enum: ["box", "sphere", "capsule"] },
                x: { type: "number" },
                y: { type: "number" },
                z: { type: "number" },
                r: { type: "number" },
                l: { type: "number" },
                label: { type: "string" },
              },
              required: ["type"],
            },
          },
        },
        required: ["location"],
      },
    },
  },
};
