// A component's `frame` in Viam's proto shape. svc writes an orientation as `{type, value}` (the
// JSON form Viam's own config files use); the proto holds it as a oneof with a message per form,
// `th` becoming `theta`. A geometry's offset (translation plus orientation) becomes its `center`
// pose, whose orientation the proto always writes as an orientation vector in degrees.
import { poseToWire, rotationOf, type OrientationType } from "../../../core/index.js";
import { isJson, mapObject, notServable, same, type Json, type Table, type Walk } from "./proto-json-mapping.js";

const vector: Table = { x: same("x"), y: same("y"), z: same("z") };

/** Each orientation form, by svc's type name: its oneof case and the proto's names for its values. */
const orientationForms: Record<OrientationType, { oneof: string; keys: Record<string, string> }> = {
  ov_degrees: { oneof: "vector_degrees", keys: { th: "theta", x: "x", y: "y", z: "z" } },
  ov_radians: { oneof: "vector_radians", keys: { th: "theta", x: "x", y: "y", z: "z" } },
  axis_angles: { oneof: "axis_angles", keys: { th: "theta", x: "x", y: "y", z: "z" } },
  euler_angles: { oneof: "euler_angles", keys: { roll: "roll", pitch: "pitch", yaw: "yaw" } },
  quaternion: { oneof: "quaternion", keys: { w: "w", x: "x", y: "y", z: "z" } },
};

function orientation(value: unknown, at: string, walk: Walk): Json {
  if (!isJson(value)) throw notServable(at, "must be an object");
  const form = typeof value.type === "string" && Object.hasOwn(orientationForms, value.type) ? orientationForms[value.type as OrientationType] : undefined;
  if (form === undefined) throw notServable(`${at}.type`, `must be one of ${Object.keys(orientationForms).join(", ")}`);
  for (const key of Object.keys(value)) if (key !== "type" && key !== "value") walk.leftOut.push(`${at}.${key}`);
  const table = Object.fromEntries(Object.entries(form.keys).map(([from, to]) => [from, same(to)]));
  return { [form.oneof]: mapObject(value.value ?? {}, `${at}.value`, table, walk) };
}

const geometryShapes = {
  box: (g: Json) => ({ box: { dims_mm: { x: g.x ?? 0, y: g.y ?? 0, z: g.z ?? 0 } } }),
  sphere: (g: Json) => ({ sphere: { radius_mm: g.r ?? 0 } }),
  capsule: (g: Json) => ({ capsule: { radius_mm: g.r ?? 0, length_mm: g.l ?? 0 } }),
} as const;

// Viam's reading of a geometry without a type: a box if it has a size, else a capsule if it has a
// length, else a sphere.
function shapeOf(g: Json): keyof typeof geometryShapes {
  if (typeof g.type === "string" && Object.hasOwn(geometryShapes, g.type)) return g.type as keyof typeof geometryShapes;
  if ([g.x, g.y, g.z].some((v) => typeof v === "number" && v !== 0)) return "box";
  return typeof g.l === "number" && g.l !== 0 ? "capsule" : "sphere";
}

const GEOMETRY_KEYS = new Set(["type", "x", "y", "z", "r", "l", "translation", "orientation", "label"]);

function geometry(value: unknown, at: string, walk: Walk): Json {
  if (!isJson(value)) throw notServable(at, "must be an object");
  for (const key of Object.keys(value)) if (!GEOMETRY_KEYS.has(key)) walk.leftOut.push(`${at}.${key}`);
  const point = mapObject(value.translation ?? {}, `${at}.translation`, vector, walk);
  const o = isJson(value.orientation) ? value.orientation : undefined;
  const turned = o === undefined ? undefined : rotationOf(o.type as OrientationType, (isJson(o.value) ? o.value : {}) as Record<string, number>);
  if (turned !== undefined && "problem" in turned) throw notServable(`${at}.orientation`, turned.problem);
  const wire = poseToWire({
    point: { x: Number(point.x ?? 0), y: Number(point.y ?? 0), z: Number(point.z ?? 0) },
    rotation: turned?.rotation ?? { w: 1, x: 0, y: 0, z: 0 },
  });
  const center = { x: wire.x, y: wire.y, z: wire.z, o_x: wire.oX, o_y: wire.oY, o_z: wire.oZ, theta: wire.theta };
  return { center, ...geometryShapes[shapeOf(value)](value), label: typeof value.label === "string" ? value.label : "" };
}

/** A component's or remote's `frame`. */
export const frameTable: Table = {
  parent: same("parent"),
  translation: { to: "translation", map: (value, at, walk) => mapObject(value, at, vector, walk) },
  orientation: { to: "orientation", map: orientation },
  geometry: { to: "geometry", map: geometry },
};
