// The SLAM service API: where the machine is in the map it builds, the map as a PCD point cloud,
// the algorithm's internal state, and how it maps.
import type { Commandable } from "../../components/index.js";
import type { WirePose } from "../../frame/index.js";

/** Millimetres, and an orientation vector with theta in degrees. */
export type Pose = WirePose;

/** New map, localizing on a map made before, or adding to one. */
export type MappingMode = "create_new_map" | "localize_only" | "update_existing_map";

export interface SlamSensor {
  name: string;
  type: "camera" | "movement_sensor";
}

export interface SlamProperties {
  /** True when the map is built in the cloud. */
  cloudSlam: boolean;
  mappingMode: MappingMode;
  /** The file type of the internal state (".pbstream"), when known. */
  internalStateFileType?: string;
  sensors: SlamSensor[];
}

export interface Slam extends Commandable {
  getPosition(): Promise<Pose>;
  /** The whole map as a PCD file: XY the ground plane, Z up, metres. */
  getPointCloudMap(returnEditedMap?: boolean): Promise<Uint8Array>;
  getInternalState(): Promise<Uint8Array>;
  getProperties(): Promise<SlamProperties>;
}
