// @grpc/grpc-js over HTTP/2 with our generated messages: unary and server-streaming calls by
// path, metadata as grpc-js hands it over (headers, then trailers with the status), a deadline
// only when the case sets one, and cancel() to abandon a call.
import { create, fromBinary, toBinary, toJson, type JsonValue } from "@bufbuild/protobuf";
import * as grpc from "@grpc/grpc-js";
import { statusDetails } from "../wire-codec.js";
import type { WireCall, WireClient, WireClientKind, WireOutcome } from "../wire-client.js";
import { createBearer } from "./outcomes.js";

const noRaw = "grpc-js encodes every frame itself";

export const grpcJsKind: WireClientKind = {
  name: "grpc-js gRPC",
  protocol: "grpc",
  http: "2",
  declaresLength: false,
  cannot: { raw: noRaw },
  open(target, credentials) {
    const client = new grpc.Client(new URL(target.url).host, grpc.credentials.createInsecure());
    const bearer = createBearer(credentials, (call) => run(client, call, {}, "unary"));
    const withBearer = async (call: WireCall, kind: "unary" | "stream") => {
      const auth = await bearer();
      return "failure" in auth ? auth.failure : run(client, call, auth.headers, kind);
    };
    return {
      unary: (call) => withBearer(call, "unary"),
      stream: (call) => withBearer(call, "stream"),
      raw: () => Promise.reject(new Error(noRaw)),
      close: async () => client.close(),
    } satisfies WireClient;
  },
};

function run(client: grpc.Client, call: WireCall, auth: Record<string, string>, kind: "unary" | "stream"): Promise<WireOutcome> {
  const { method } = call;
  const path = `/${method.parent.typeName}/${method.name}`;
  const metadata = new grpc.Metadata();
  for (const [key, value] of Object.entries({ ...call.headers, ...auth })) metadata.set(key, value);
  const options: grpc.CallOptions = call.timeoutMs === undefined ? {} : { deadline: Date.now() + call.timeoutMs };
  const serialize = (m: unknown) => Buffer.from(toBinary(method.input, m as never));
  const deserialize = (bytes: Buffer) => fromBinary(method.output, bytes);
  const request = create(method.input, call.request);
  return new Promise((resolve) => {
    let headers: grpc.Metadata | undefined;
    const values: JsonValue[] = [];
    const finish = (status: grpc.StatusObject) => {
      const seen = { ...record(headers), ...record(status.metadata) };
      const ok = status.code === grpc.status.OK;
      resolve({
        code: status.code,
        message: ok ? "" : status.details,
        ...(kind === "unary" && ok ? { value: values[0] } : {}),
        ...(kind === "stream" ? { messages: values } : {}),
        metadata: seen,
        details: statusDetails(seen["grpc-status-details-bin"]),
      });
    };
    let grpcCall: grpc.ClientUnaryCall | grpc.ClientReadableStream<unknown>;
    if (kind === "unary") {
      grpcCall = client.makeUnaryRequest(path, serialize, deserialize, request, metadata, options, (_error, response) => {
        if (response !== undefined) values.push(toJson(method.output, response));
      });
    } else {
      const readable = client.makeServerStreamRequest(path, serialize, deserialize, request, metadata, options);
      readable.on("data", (m) => values.push(toJson(method.output, m as never)));
      readable.on("error", () => {});
      grpcCall = readable;
    }
    grpcCall.on("metadata", (m: grpc.Metadata) => (headers = m));
    // The status comes after the callback (unary) or the last message (stream).
    grpcCall.on("status", (status: grpc.StatusObject) => setImmediate(() => finish(status)));
    void call.abortWhen?.then(() => grpcCall.cancel());
  });
}

function record(metadata: grpc.Metadata | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, values] of Object.entries(metadata?.getMap() ?? {})) {
    out[key] = Buffer.isBuffer(values) ? values.toString("base64") : String(values);
  }
  return out;
}
