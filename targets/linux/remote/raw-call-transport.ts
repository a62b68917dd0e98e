// A connect Transport over unary calls as bytes (RawUnaryCall): the request message encoded, sent
// with the call's headers, deadline and cancellation, the answer's bytes decoded. So typed clients
// (a remote sensor's getReadings) work over whatever carries raw calls, such as a WebRTC data
// channel, with the same interceptors a gRPC transport takes. Unary calls only: a streaming call
// is UNIMPLEMENTED.
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { ConnectError, createContextValues, type Interceptor, type Transport } from "@connectrpc/connect";
import { runUnaryCall } from "@connectrpc/connect/protocol";
import { Code } from "../../../core/index.js";
import type { RawUnaryCall } from "./raw-unary.js";

export interface RawCallTransportOptions {
  readonly interceptors?: Interceptor[];
  /** An answer larger than this is refused (RESOURCE_EXHAUSTED); no bound by default. */
  readonly maxAnswerBytes?: number;
}

export function createRawCallTransport(send: (call: RawUnaryCall) => Promise<Uint8Array>, options: RawCallTransportOptions = {}): Transport {
  return {
    unary(method, signal, timeoutMs, header, input, contextValues) {
      const path = `/${method.parent.typeName}/${method.name}`;
      const deadlineMs = timeoutMs !== undefined && timeoutMs > 0 ? timeoutMs : undefined;
      return runUnaryCall({
        interceptors: options.interceptors,
        signal,
        timeoutMs: deadlineMs,
        req: {
          stream: false,
          service: method.parent,
          method,
          requestMethod: "POST",
          url: path,
          header: new Headers(header),
          contextValues: contextValues ?? createContextValues(),
          message: input,
        },
        async next(req) {
          const headers: Record<string, string> = {};
          req.header.forEach((value, key) => (headers[key] = value));
          const message = toBinary(method.input, req.message);
          const answer = await send({ path, message, headers, cancel: req.signal, timeoutMs: deadlineMs, maxAnswerBytes: options.maxAnswerBytes });
          return { stream: false, service: method.parent, method, header: new Headers(), message: fromBinary(method.output, answer), trailer: new Headers() };
        },
      });
    },
    stream() {
      return Promise.reject(new ConnectError("streaming calls are not carried on this connection", Code.Unimplemented));
    },
  };
}
