// Public face of targets/mcu/dispatch: serving gRPC-web calls without a transport, for the MCU.
export { createRpcDispatcher } from "./rpc-dispatcher.js";
export type { DispatchedCall, DispatchRequest, RpcDispatcher, RpcDispatcherOptions } from "./rpc-dispatcher.js";
export { encodeGrpcMessage, errorBody, requestMessage, responseBody } from "./grpc-web-frames.js";
