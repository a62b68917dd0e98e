// Public face of targets/linux/camera: the camera API, served by svc-server only (its images
// need an encoder, which Linux has at hand): its interface, its handlers and the fake camera.
export type { Camera, CameraFrames, CameraImage, CameraIntrinsics, CameraProperties } from "./camera.js";
export { createCameraService } from "./camera-service.js";
export { fakeCameraModel } from "./fake-camera.js";
export { encodePng } from "./png.js";
