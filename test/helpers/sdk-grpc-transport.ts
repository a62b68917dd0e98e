// Native gRPC over HTTP/2 for the official SDK, through its GRPC_TRANSPORT_FACTORY hook. The SDK
// is built on connect v1 (message classes, `MethodInfo`), which the installed connect-node v2
// transports cannot drive. connect-node 1.x's gRPC transport is connect v1's own gRPC protocol
// over Node's HTTP/2 client, and both halves are here: the protocol from the connect v1 the SDK
// ships with, the HTTP/2 client (a plain UniversalClientFn, the same shape in v1 and v2) from the
// installed connect-node. So calls, streams, deadlines, cancellation and error details behave as
// they would for a user of the SDK with connect-node 1.x.
import { createNodeHttpClient, Http2SessionManager } from "@connectrpc/connect-node";
import type http2 from "node:http2";
// The SDK's package exports hide its own node_modules, so its connect v1 is reached by path.
import { createTransport } from "../../node_modules/@viamrobotics/sdk/node_modules/@connectrpc/connect/dist/esm/protocol-grpc/index.js";

export interface SdkGrpcTransports {
  /** Install as `globalThis.VIAM = { GRPC_TRANSPORT_FACTORY: transports.factory }`. */
  readonly factory: never;
  /** The paths of the calls carried so far (`/package.Service/Method`), oldest first. */
  readonly calls: readonly string[];
  /** Closes the HTTP/2 sessions the SDK opened. */
  close(): void;
}

export function createSdkGrpcTransports(tls?: http2.SecureClientSessionOptions): SdkGrpcTransports {
  const sessions: Http2SessionManager[] = [];
  const calls: string[] = [];
  const factory = ({ baseUrl }: { baseUrl: string }) => {
    const session = new Http2SessionManager(baseUrl, undefined, tls);
    sessions.push(session);
    return createTransport({
      baseUrl,
      httpClient: createNodeHttpClient({ httpVersion: "2", sessionProvider: () => session }),
      useBinaryFormat: true,
      interceptors: [
        (next) => (req) => {
          calls.push(new URL(req.url).pathname);
          return next(req);
        },
      ],
      // connect-node 1.x's defaults.
      acceptCompression: [],
      sendCompression: null,
      compressMinBytes: 1024,
      readMaxBytes: 0xffffffff,
      writeMaxBytes: 0xffffffff,
    });
  };
  return {
    factory: factory as never,
    calls,
    close: () => sessions.forEach((session) => session.abort()),
  };
}
