// A lean WebRTC load generator: one connection to svc-server (signaled through the machine's own
// SignalingService), each call a new stream on its "data" channel with the request frames encoded
// once per call, its answer judged by the trailers' status alone.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { RequestSchema, ResponseSchema } from "../../proto/gen/proto/rpc/webrtc/v1/grpc_pb.js";
import { openDataChannel } from "../../test/webrtc/raw-webrtc-client.js";
import type { Caller } from "./grpc-load.js";

/** Opens a WebRTC connection to the machine at `url` and calls `path` with `message` on it. */
export async function webRtcCaller(url: string, path: string, message: Uint8Array): Promise<Caller> {
  const { pc, data } = await openDataChannel(url, new URL(url).host);
  const waiting = new Map<bigint, { resolve: () => void; reject: (error: Error) => void }>();
  data.addEventListener("message", (event) => {
    const response = fromBinary(ResponseSchema, new Uint8Array((event as MessageEvent).data as ArrayBuffer));
    if (response.type.case !== "trailers") return;
    const id = response.stream!.id;
    const status = response.type.value.status;
    const call = waiting.get(id);
    waiting.delete(id);
    if (!status || status.code === 0) call?.resolve();
    else call?.reject(new Error(`status ${status.code}: ${status.message}`));
  });
  let next = 0n;
  return {
    call() {
      const id = next++;
      const headers = toBinary(RequestSchema, create(RequestSchema, { stream: { id }, type: { case: "headers", value: { method: path } } }));
      const body = toBinary(
        RequestSchema,
        create(RequestSchema, { stream: { id }, type: { case: "message", value: { hasMessage: true, packetMessage: { data: message, eom: true } } } }),
      );
      return new Promise<void>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        data.send(headers);
        data.send(body);
      });
    },
    close: () => pc.close(),
  };
}
