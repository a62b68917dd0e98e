// Public face of core/services/slam: the SLAM service API, its handlers and the fake.
export type { MappingMode, Pose, Slam, SlamProperties, SlamSensor } from "./slam.js";
export { createSlamService, SLAM_CHUNK_BYTES } from "./slam-service.js";
export { fakeSlamModel } from "./fake-slam.js";
