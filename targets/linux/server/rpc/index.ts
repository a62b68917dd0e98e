// The connect adapter of the API handlers: core handler sets as connect services.
export { createConnectCall, SESSION_HEADER, type ConnectCall, type ConnectCallOptions } from "./connect-call.js";
export { fromConnectError, toConnectError } from "./connect-errors.js";
export { toConnectImpl } from "./connect-impl.js";
export { componentServiceApis, registerComponentServices } from "./component-services.js";
export { createModuleForwarding, type Forward, type ForwardOf, type ModuleForwardingOptions } from "./module-forwarding.js";
