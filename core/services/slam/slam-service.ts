// viam.service.slam.v1.SLAMService: the position in the map, the map and the internal state as
// server streams of chunks of at most 1 MiB (Viam's size) whose concatenation is the whole, the
// properties, and DoCommand.
import { MappingMode as WireMappingMode, SensorType, type SLAMService } from "../../../proto/gen/service/slam/v1/slam_pb.js";
import { SLAM_API } from "../../components/index.js";
import { doCommandMethod, resolveResource, type ResourceLookup, type ServiceHandlers } from "../../rpc/index.js";
import type { MappingMode, Slam } from "./slam.js";

/** The most a streamed chunk holds. */
export const SLAM_CHUNK_BYTES = 1024 * 1024;

const mappingModes: Record<MappingMode, WireMappingMode> = {
  create_new_map: WireMappingMode.CREATE_NEW_MAP,
  localize_only: WireMappingMode.LOCALIZE_ONLY,
  update_existing_map: WireMappingMode.UPDATE_EXISTING_MAP,
};

/** Consecutive views of `bytes`, each at most SLAM_CHUNK_BYTES; one empty chunk for nothing. */
export function* chunksOf(bytes: Uint8Array): Generator<Uint8Array> {
  if (bytes.length === 0) yield bytes;
  for (let at = 0; at < bytes.length; at += SLAM_CHUNK_BYTES) yield bytes.subarray(at, at + SLAM_CHUNK_BYTES);
}

export function createSlamService(lookup: ResourceLookup): ServiceHandlers<typeof SLAMService> {
  const slam = (name: string, method: keyof Slam & string, rpc: string) => resolveResource<Slam>(lookup, SLAM_API, name, method, rpc);
  return {
    async getPosition(request) {
      const p = await slam(request.name, "getPosition", "GetPosition").getPosition();
      return { pose: { x: p.x, y: p.y, z: p.z, oX: p.oX, oY: p.oY, oZ: p.oZ, theta: p.theta } };
    },
    async *getPointCloudMap(request) {
      const map = await slam(request.name, "getPointCloudMap", "GetPointCloudMap").getPointCloudMap(request.returnEditedMap ?? false);
      for (const chunk of chunksOf(map)) yield { pointCloudPcdChunk: chunk };
    },
    async *getInternalState(request) {
      const state = await slam(request.name, "getInternalState", "GetInternalState").getInternalState();
      for (const chunk of chunksOf(state)) yield { internalStateChunk: chunk };
    },
    async getProperties(request) {
      const p = await slam(request.name, "getProperties", "GetProperties").getProperties();
      return {
        cloudSlam: p.cloudSlam,
        mappingMode: mappingModes[p.mappingMode],
        internalStateFileType: p.internalStateFileType,
        sensorInfo: p.sensors.map((s) => ({ name: s.name, type: s.type === "camera" ? SensorType.CAMERA : SensorType.MOVEMENT_SENSOR })),
      };
    },
    doCommand: doCommandMethod(lookup, SLAM_API),
  };
}
