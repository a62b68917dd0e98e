// A component's `frame` as written in a configuration (Viam's format, once the schema has checked
// the types and filled in the defaults), and the frame it describes: its pose in its parent and
// its geometry. Reading one finds every problem with its place under `frame`; a key that does not
// belong to the form written is a warning and ignored, as unknown keys are elsewhere.
import { rotationOf, orientationKeys, type OrientationType, type OrientationValue } from "./orientation.js";
import { IDENTITY_ROTATION, type Quaternion, type Vector3 } from "./quaternion.js";
import type { Pose } from "./pose.js";
import type { FrameEntry, FrameGeometry, Shape } from "./frame-system.js";

export interface OrientationConfig {
  type: OrientationType;
  value: OrientationValue;
}

export type GeometryType = Shape["kind"];

export interface GeometryConfig {
  /** Left out, it is read from the sizes given, as Viam does. */
  type?: GeometryType;
  x?: number;
  y?: number;
  z?: number;
  r?: number;
  l?: number;
  /** The geometry's centre in the frame. */
  translation: Vector3;
  orientation?: OrientationConfig;
  /** "" takes the frame's name. */
  label: string;
}

export interface FrameConfig {
  /** A frame's name: "world" or another component's. */
  parent: string;
  /** Millimetres from the parent's origin. */
  translation: Vector3;
  /** Left out, the frame is turned as its parent is. */
  orientation?: OrientationConfig;
  geometry?: GeometryConfig;
}

export interface FrameConfigProblem {
  /** Under `frame`: ["orientation", "value"]. */
  path: string[];
  message: string;
  severity: "error" | "warning";
}

/** The sizes each shape takes, and the keys every geometry may have. */
const shapeKeys: Readonly<Record<GeometryType, readonly string[]>> = { box: ["x", "y", "z"], sphere: ["r"], capsule: ["r", "l"] };
const geometryKeys = ["type", "translation", "orientation", "label"];

/** The frame named `name` that `config` describes (none when there is an error), and every problem. */
export function readFrameConfig(name: string, config: FrameConfig): { frame?: FrameEntry; problems: FrameConfigProblem[] } {
  const problems: FrameConfigProblem[] = [];
  const rotation = readOrientation(config.orientation, ["orientation"], problems);
  const geometry = config.geometry && readGeometry(name, config.geometry, problems);
  if (problems.some((p) => p.severity === "error") || !rotation) return { problems };
  const frame: FrameEntry = { name, parent: config.parent, pose: { point: copyVector(config.translation), rotation } };
  if (geometry) frame.geometry = geometry;
  return { frame, problems };
}

function readOrientation(config: OrientationConfig | undefined, path: string[], problems: FrameConfigProblem[]): Quaternion | undefined {
  if (!config) return IDENTITY_ROTATION;
  const keys = orientationKeys[config.type];
  warnOthers(config.value, keys, [], `"${config.type}"`, [...path, "value"], problems);
  const read = rotationOf(config.type, config.value);
  if ("problem" in read) {
    problems.push({ path: [...path, "value"], message: read.problem, severity: "error" });
    return undefined;
  }
  return read.rotation;
}

function readGeometry(name: string, config: GeometryConfig, problems: FrameConfigProblem[]): FrameGeometry | undefined {
  const kind = config.type ?? shapeFromSizes(config);
  if (kind === undefined) {
    problems.push({ path: ["geometry", "type"], message: 'is required when no size is given: "box" {x, y, z}, "sphere" {r} or "capsule" {r, l}', severity: "error" });
    return undefined;
  }
  warnOthers(config, shapeKeys[kind], geometryKeys, `a ${kind}`, ["geometry"], problems);
  const shape = shapeOf(kind, config, problems);
  const rotation = readOrientation(config.orientation, ["geometry", "orientation"], problems);
  if (!shape || !rotation) return undefined;
  const center: Pose = { point: copyVector(config.translation), rotation };
  return { shape, center, label: config.label === "" ? name : config.label };
}

// Viam's reading of a geometry without a type: a box if it has a size, else a capsule if it
// has a length, else a sphere if it has a radius.
function shapeFromSizes(config: GeometryConfig): GeometryType | undefined {
  if ((config.x ?? 0) !== 0 || (config.y ?? 0) !== 0 || (config.z ?? 0) !== 0) return "box";
  if ((config.l ?? 0) !== 0) return "capsule";
  if ((config.r ?? 0) !== 0) return "sphere";
  return undefined;
}

function shapeOf(kind: GeometryType, config: GeometryConfig, problems: FrameConfigProblem[]): Shape | undefined {
  const error = (key: string, message: string) => {
    problems.push({ path: ["geometry", key], message, severity: "error" });
    return undefined;
  };
  const { x = 0, y = 0, z = 0, r = 0, l = 0 } = config;
  switch (kind) {
    case "box": {
      // A box may be flat (a size of 0), as Viam allows, but not inside out.
      for (const [key, size] of [["x", x], ["y", y], ["z", z]] as const) {
        if (size < 0) return error(key, `must not be negative for a box (found ${size})`);
      }
      return { kind, x, y, z };
    }
    case "sphere":
      return r > 0 ? { kind, r } : error("r", `must be more than 0 for a sphere (found ${r})`);
    case "capsule":
      if (!(r > 0)) return error("r", `must be more than 0 for a capsule (found ${r})`);
      if (l < 2 * r) return error("l", `must be at least twice r (${2 * r}) for a capsule (found ${l})`);
      // A capsule no longer than its two caps is a sphere, as Viam answers it.
      return l === 2 * r ? { kind: "sphere", r } : { kind, r, l };
  }
}

/** A warning for each key of `written` that is neither one of the form's `keys` nor in `also`. */
function warnOthers(written: object, keys: readonly string[], also: readonly string[], form: string, path: string[], problems: FrameConfigProblem[]): void {
  for (const key of Object.keys(written)) {
    if (keys.includes(key) || also.includes(key)) continue;
    const listed = keys.map((k) => `"${k}"`).join(", ");
    problems.push({ path: [...path, key], message: `unknown key "${key}" for ${form} (ignored; its keys are ${listed})`, severity: "warning" });
  }
}

function copyVector(v: Vector3): Vector3 {
  return { x: v.x, y: v.y, z: v.z };
}
