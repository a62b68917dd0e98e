// The fake SLAM service (rdk:builtin:fake) answers as Viam's fake does, from data made in code
// instead of recorded files: each GetPointCloudMap moves on to the next of 24 steps round a room
// (fake-room.ts), so the map grows as the machine goes round; GetPosition and GetInternalState
// answer for the step reached (the first before any map was asked for). It maps locally,
// creating a new map. `map_points` is the size of the whole map: 2400 points unless set.
import { FAKE_MODEL, failOnIssues, readAttributes, SLAM_API, type AttributeReader } from "../../components/index.js";
import { formatResourceName, type ModelRegistration } from "../../resource/index.js";
import { ROOM_STEPS, roomMap, roomPose } from "./fake-room.js";
import { asciiBytes } from "./pcd.js";
import type { Slam } from "./slam.js";

const DEFAULT_MAP_POINTS = 2400;
// 16 MB of PCD at most: a fake's map is for trying clients, not for filling memory.
const MAX_MAP_POINTS = 1_000_000;

const mapPointsOf = (a: AttributeReader) => a.number("map_points", { integer: true, min: ROOM_STEPS, max: MAX_MAP_POINTS, default: DEFAULT_MAP_POINTS })!;

/** The internal state: which step the machine is at and the way it came, as JSON. */
function internalState(step: number, mapPoints: number): Uint8Array {
  const trajectory: number[][] = [];
  for (let s = 0; s <= step; s++) {
    const p = roomPose(s);
    trajectory.push([p.x, p.y, p.theta]);
  }
  return asciiBytes(JSON.stringify({ format: "svc fake slam", step, map_points: mapPoints, trajectory_mm_deg: trajectory }));
}

export const fakeSlamModel: ModelRegistration<Slam> = {
  api: SLAM_API,
  model: FAKE_MODEL,
  attributesSchema: {
    type: "object",
    properties: {
      map_points: {
        type: "integer",
        description: "points in the whole map; each step's map holds its share of them",
        default: DEFAULT_MAP_POINTS,
        minimum: ROOM_STEPS,
        maximum: MAX_MAP_POINTS,
      },
    },
  },
  validate(config, path) {
    const a = readAttributes(config.attributes, path);
    mapPointsOf(a);
    return { issues: a.issues };
  },
  async build(ctx) {
    const a = readAttributes(ctx.config.attributes, formatResourceName(ctx.name));
    const mapPoints = mapPointsOf(a);
    failOnIssues(a.issues);
    // -1 until the first map is asked for; position and state read step 0 until then.
    let step = -1;
    const current = () => Math.max(step, 0);
    return {
      name: ctx.name,
      async getPosition() {
        return roomPose(current());
      },
      async getPointCloudMap() {
        step = (step + 1) % ROOM_STEPS;
        return roomMap(step, mapPoints);
      },
      async getInternalState() {
        return internalState(current(), mapPoints);
      },
      async getProperties() {
        return { cloudSlam: false, mappingMode: "create_new_map", internalStateFileType: ".json", sensors: [] };
      },
      async doCommand(command) {
        return command;
      },
      async close() {},
    };
  },
};
