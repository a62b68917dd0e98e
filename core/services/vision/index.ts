// Public face of core/services/vision: the vision service API, served by svc-server only,
// platform-neutral but kept out of the MCU's core: its interface, its handlers (which fetch a
// camera's image for the *FromCamera calls) and the fake vision service.
export type { Classification, Detection, ImageSource, VisionImage, VisionProperties, VisionService } from "./vision.js";
export { createVisionService } from "./vision-service.js";
export { FAKE_CLASSIFICATION, FAKE_DETECTION, fakeDetection, fakeVisionModel } from "./fake-vision.js";
export { imageSize, type ImageSize } from "./image-size.js";
