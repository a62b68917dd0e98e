// Public face of targets/linux/remote: resources served by another process over a unix socket.
// The server side (listenOnUnixSocket) serves connect routes on a socket; the client side
// (createUnixSocketTransport) dials it; createRemoteResource makes a resource at the other end
// usable through its API's TypeScript interface, exactly like a built-in one.
export { createUnixSocketTransport } from "./unix-socket-transport.js";
export type { UnixSocketTransport, UnixSocketTransportOptions } from "./unix-socket-transport.js";
export { markServedBy, nameServedUnder, peerServing } from "./raw-peer.js";
export type { RawPeer } from "./raw-peer.js";
export { rawUnary, watchCancel } from "./raw-unary.js";
export type { RawUnaryCall } from "./raw-unary.js";
export { createGrpcWebPool } from "./grpc-web-pool.js";
export type { GrpcWebPool, GrpcWebPoolOptions } from "./grpc-web-pool.js";
export { notGrpcWeb } from "./not-grpc-web.js";
export { describeConnectionError } from "./describe-connection-error.js";
export { createRawCallTransport, type RawCallTransportOptions } from "./raw-call-transport.js";
export { nameField, namesResourceFirst, renamed, requestName } from "./request-name.js";
export { listenOnUnixSocket, MAX_SOCKET_PATH_BYTES } from "./unix-socket-server.js";
export type { UnixSocketServer, UnixSocketServerOptions } from "./unix-socket-server.js";
export { createRemoteResource, isRemoteApi, REMOTE_APIS } from "./remote-resource.js";
export { linuxApiTable, linuxServedApis } from "./linux-api-table.js";
export type { LinuxApiColumns, LinuxServedApi, RemoteFactory } from "./linux-api-table.js";
export { RemoteCallError } from "./remote-call-error.js";
export { createRemoteBoard } from "./remote-board.js";
export { createRemoteEncoder } from "./remote-encoder.js";
export { createRemoteGenericComponent, createRemoteGenericService } from "./remote-generic.js";
export { createRemoteMotor } from "./remote-motor.js";
export { createRemoteMovementSensor } from "./remote-movement-sensor.js";
export { createRemotePowerSensor } from "./remote-power-sensor.js";
export { createRemoteSensor } from "./remote-sensor.js";
export { createRemoteServo } from "./remote-servo.js";
