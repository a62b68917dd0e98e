// Public face of core/rpc: transport-neutral API handlers and the one error model they speak.
export { Code, RpcError } from "./status.js";
export type { CallInfo } from "./call.js";
