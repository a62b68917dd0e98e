// The calls of this machine's callers passed on to a remote part as bytes, the cheapest way the
// remote takes them: gRPC-web on kept-alive HTTP/1.1 connections (remote/grpc-web-pool.ts), since
// Node's HTTP/2 client stream costs a passed call about what serving it costs; over HTTP/2 when
// the remote does not speak gRPC-web on HTTP/1.1 (learnt from its first answer, and kept until
// the connection is reset). The part's own calls (signing in, listing) stay on its HTTP/2
// connection, whose closing tells it the remote went away.
import { createGrpcWebPool, notGrpcWeb, type GrpcWebPool, type RawUnaryCall } from "../remote/index.js";

/** The connections calls are passed on at once; later calls wait for one. */
export const PASSED_CALL_CONNECTIONS = 32;

export interface PassedCallsOptions {
  /** "http://host:port" or "https://host:port". */
  readonly url: string;
  readonly peer: string;
  /** The same call over HTTP/2. */
  readonly overHttp2: (call: RawUnaryCall) => Promise<Uint8Array>;
}

export interface PassedCalls {
  pass(call: RawUnaryCall): Promise<Uint8Array>;
  /** Drops the connections, and what was learnt of the remote. */
  reset(): void;
}

export function createPassedCalls(options: PassedCallsOptions): PassedCalls {
  let pool: GrpcWebPool | undefined;
  let http1 = true;

  async function overHttp1(call: RawUnaryCall): Promise<Uint8Array> {
    pool ??= createGrpcWebPool({ url: options.url, peer: options.peer, maxConnections: PASSED_CALL_CONNECTIONS });
    try {
      return await pool.call(call);
    } catch (thrown) {
      if (!notGrpcWeb(thrown)) throw thrown;
      // Nothing reached the remote's method: the same call goes the other way.
      http1 = false;
      return options.overHttp2(call);
    }
  }

  return {
    pass: (call) => (http1 ? overHttp1(call) : options.overHttp2(call)),
    reset() {
      pool?.close();
      pool = undefined;
      http1 = true;
    },
  };
}
