// Node's own floor for a unary gRPC call, to hold svc-server against on the same machine in the
// same run: node:http2's stream API, the 5-byte frame, protobuf-es decoding the request and
// encoding the answer, headers and trailers, and nothing else (no limits, no auth, no operations).
import type { DescMessage, MessageShape } from "@bufbuild/protobuf";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";

export interface RawNodeServer {
  port: number;
  stop(): Promise<unknown>;
}

export async function listenRawHttp2<I extends DescMessage, O extends DescMessage>(
  path: string,
  input: I,
  output: O,
  answer: (request: MessageShape<I>) => MessageShape<O>,
): Promise<RawNodeServer> {
  const server = http2.createServer();
  server.on("stream", (stream, headers) => {
    stream.on("error", () => {});
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => {
      if (headers[":path"] !== path) {
        stream.respond({ ":status": 200, "content-type": "application/grpc", "grpc-status": "12" }, { endStream: true });
        return;
      }
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      const bytes = toBinary(output, answer(fromBinary(input, body.subarray(5))));
      const frame = Buffer.allocUnsafe(5 + bytes.length);
      frame[0] = 0;
      frame.writeUInt32BE(bytes.length, 1);
      frame.set(bytes, 5);
      stream.respond({ ":status": 200, "content-type": "application/grpc+proto" }, { waitForTrailers: true });
      stream.once("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
      stream.end(frame);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}
