// Public face of core/services/motion: the motion service API, its handlers and its models.
export type { Motion, PoseInFrame } from "./motion.js";
export { createMotionService } from "./motion-service.js";
export { motionModels, type MotionModelOptions } from "./builtin-motion.js";
