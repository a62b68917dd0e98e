// Public face of core/rpc/manipulators: the handlers of the arm, gripper and gantry APIs, which
// only svc-server serves (its Linux column names them), so the MCU's bundle never carries them.
export { createArmService } from "./arm-service.js";
export { createGripperService } from "./gripper-service.js";
export { createGantryService } from "./gantry-service.js";
