// A lean gRPC client over one HTTP/2 session, for benchmarks whose simulated clients share the
// machine's two cores with the server they measure: unary calls and server streams with
// protobuf-es messages, the frames read and written here instead of by a general client. Every
// answer is decoded whole, as a real client would, and a non-zero grpc-status is an error.
import { fromBinary, toBinary, type DescMessage, type MessageInitShape, type MessageShape } from "@bufbuild/protobuf";
import { create } from "@bufbuild/protobuf";
import http2 from "node:http2";
import { grpcFrame } from "./grpc-load.js";

export interface GrpcSession {
  /** Headers sent with every later call (an access token, once signed in). */
  setHeader(name: string, value: string): void;
  unary<I extends DescMessage, O extends DescMessage>(path: string, input: I, request: MessageInitShape<I>, output: O): Promise<MessageShape<O>>;
  /** Calls `onMessage` with each message of a server stream; resolves when it ends well. */
  serverStream<I extends DescMessage, O extends DescMessage>(path: string, input: I, request: MessageInitShape<I>, output: O, onMessage: (message: MessageShape<O>) => void): Promise<void>;
  close(): void;
}

export function connectGrpcSession(url: string): GrpcSession {
  const session = http2.connect(url);
  session.on("error", () => {});
  const extra: Record<string, string> = {};

  function call(path: string, body: Buffer, onMessage: (bytes: Buffer) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      const stream = session.request({ ...extra, ":method": "POST", ":path": path, "content-type": "application/grpc+proto", te: "trailers" });
      let pending: Buffer = Buffer.alloc(0);
      stream.on("data", (chunk: Buffer) => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        while (pending.length >= 5 && pending.length >= 5 + pending.readUInt32BE(1)) {
          const length = pending.readUInt32BE(1);
          onMessage(pending.subarray(5, 5 + length));
          pending = pending.subarray(5 + length);
        }
      });
      stream.on("trailers", (t) => (t["grpc-status"] === "0" ? resolve() : reject(new Error(`${path}: grpc-status ${t["grpc-status"]}: ${t["grpc-message"]}`))));
      stream.on("close", () => reject(new Error(`${path}: the stream closed without a status`)));
      stream.on("error", reject);
      stream.end(body);
    });
  }

  return {
    setHeader: (name, value) => void (extra[name] = value),
    async unary(path, input, request, output) {
      let answer: MessageShape<typeof output> | undefined;
      await call(path, grpcFrame(toBinary(input, create(input, request))), (bytes) => (answer = fromBinary(output, bytes)));
      if (answer === undefined) throw new Error(`${path}: no answer message`);
      return answer;
    },
    serverStream: (path, input, request, output, onMessage) => call(path, grpcFrame(toBinary(input, create(input, request))), (bytes) => onMessage(fromBinary(output, bytes))),
    close: () => session.destroy(),
  };
}
