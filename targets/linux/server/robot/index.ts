// The RobotService on Linux: operations and sessions around every call, and the service itself.
export { createRobotApi, type RobotApi, type RobotApiOptions } from "./robot-api.js";
export {
  createCallInterceptor,
  operationOf,
  OPERATION_ID_HEADER,
  UNTRACKED_METHOD_PREFIXES,
  type CallInterceptorOptions,
} from "./call-interceptor.js";
export { registerRobotService } from "./robot-routes.js";
export { PLATFORM, VIAM_API_VERSION } from "./version.js";
