// The world the fake SLAM service maps, made in code: a room 8 m by 5 m (walls at x = ±4 m and
// y = ±2.5 m, the floor at z = 0) that the machine circles anticlockwise on an ellipse about its
// middle, 2.5 m by 1.25 m, in 24 steps a lap, as Viam's fake steps through 24 recorded maps. At
// step k the map holds the walls seen so far: the first (k + 1) / 24 of the way round them,
// starting from the middle of the right wall and going the way the machine goes.
import { encodePcd, type CloudPoint } from "./pcd.js";
import type { Pose } from "./slam.js";

export const ROOM_STEPS = 24;

const HALF_X_M = 4;
const HALF_Y_M = 2.5;
const LAP_RADIUS_X_MM = 2500;
const LAP_RADIUS_Y_MM = 1250;

// The walls from the middle of the right wall, anticlockwise: each leg's start and its direction.
const legs = [
  { from: [HALF_X_M, 0], to: [HALF_X_M, HALF_Y_M] },
  { from: [HALF_X_M, HALF_Y_M], to: [-HALF_X_M, HALF_Y_M] },
  { from: [-HALF_X_M, HALF_Y_M], to: [-HALF_X_M, -HALF_Y_M] },
  { from: [-HALF_X_M, -HALF_Y_M], to: [HALF_X_M, -HALF_Y_M] },
  { from: [HALF_X_M, -HALF_Y_M], to: [HALF_X_M, 0] },
].map(({ from, to }) => ({ from: from as [number, number], to: to as [number, number], length: Math.hypot(to[0]! - from[0]!, to[1]! - from[1]!) }));

/** Metres round the walls. */
export const ROOM_PERIMETER_M = legs.reduce((sum, leg) => sum + leg.length, 0);

/** The point `distance` metres round the walls from the middle of the right wall. */
function wallPoint(distance: number): CloudPoint {
  let left = distance;
  for (const leg of legs) {
    if (left <= leg.length) {
      const t = left / leg.length;
      return { x: leg.from[0] + t * (leg.to[0] - leg.from[0]), y: leg.from[1] + t * (leg.to[1] - leg.from[1]), z: 0, confidence: 100 };
    }
    left -= leg.length;
  }
  return { x: HALF_X_M, y: 0, z: 0, confidence: 100 };
}

/** Where the machine is at `step` (0 to 23): millimetres, facing the way it goes round. */
export function roomPose(step: number): Pose {
  const a = (2 * Math.PI * step) / ROOM_STEPS;
  const heading = (Math.atan2(LAP_RADIUS_Y_MM * Math.cos(a), -LAP_RADIUS_X_MM * Math.sin(a)) * 180) / Math.PI;
  return { x: LAP_RADIUS_X_MM * Math.cos(a), y: LAP_RADIUS_Y_MM * Math.sin(a), z: 0, oX: 0, oY: 0, oZ: 1, theta: heading };
}

/** How many of the whole map's `mapPoints` are seen by `step`. */
export function pointsSeen(step: number, mapPoints: number): number {
  return Math.ceil((mapPoints * (step + 1)) / ROOM_STEPS);
}

/** The map at `step` as a PCD file: points spaced evenly round the walls, as far as seen. */
export function roomMap(step: number, mapPoints: number): Uint8Array {
  const spacing = ROOM_PERIMETER_M / mapPoints;
  return encodePcd(pointsSeen(step, mapPoints), (i) => wallPoint((i + 0.5) * spacing));
}
