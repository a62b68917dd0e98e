// One call's answer as the bytes of its response message, for checking that servers compared
// side by side answer exactly the same thing: the load generator only looks at statuses.
import http from "node:http";
import http2 from "node:http2";
import type { CallHeaders } from "./grpc-load.js";

/** The response message of one gRPC call over HTTP/2; fails unless grpc-status is 0. */
export function answerOverHttp2(port: number, path: string, frame: Buffer, extra: CallHeaders = {}): Promise<Buffer> {
  const session = http2.connect(`http://127.0.0.1:${port}`);
  return new Promise<Buffer>((resolve, reject) => {
    session.on("error", reject);
    const stream = session.request({ ...extra, ":method": "POST", ":path": path, "content-type": "application/grpc+proto", te: "trailers" });
    const chunks: Buffer[] = [];
    let status: string | undefined;
    stream.on("response", (headers) => (status ??= headers["grpc-status"] as string | undefined));
    stream.on("trailers", (trailers) => (status = trailers["grpc-status"] as string | undefined));
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("error", reject);
    stream.on("end", () => {
      if (status !== "0") return reject(new Error(`${path} on port ${port}: grpc-status ${status}`));
      resolve(firstMessage(Buffer.concat(chunks), `${path} on port ${port}`));
    });
    stream.end(frame);
  }).finally(() => session.close());
}

/** The response message of one gRPC-web call over HTTP/1.1; fails unless its trailer says grpc-status 0. */
export function answerOverGrpcWeb(port: number, path: string, frame: Buffer, extra: CallHeaders = {}): Promise<Buffer> {
  const headers = { ...extra, "content-type": "application/grpc-web+proto", "x-grpc-web": "1", "content-length": frame.length };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path, method: "POST", headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        if (!body.toString("latin1").includes("grpc-status: 0")) return reject(new Error(`${path} on port ${port} (gRPC-web): ${body.toString("latin1")}`));
        resolve(firstMessage(body, `${path} on port ${port} (gRPC-web)`));
      });
    });
    req.on("error", reject);
    req.end(frame);
  });
}

/** The first length-prefixed message of a gRPC body (a gRPC-web trailer frame has the 0x80 flag). */
function firstMessage(body: Buffer, what: string): Buffer {
  if (body.length < 5 || (body[0]! & 0x80) !== 0) throw new Error(`${what}: the answer holds no message`);
  const length = body.readUInt32BE(1);
  if (body.length < 5 + length) throw new Error(`${what}: the answer's message is cut short`);
  return body.subarray(5, 5 + length);
}
