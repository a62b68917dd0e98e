// The Response frames svc-server writes by hand read back, through the proto.rpc.webrtc.v1
// schema, as the frames the Viam clients expect: headers with their metadata, a message cut into
// packets with the last marked, trailers with the status and metadata.
import { create, fromBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { StatusSchema } from "../../proto/gen/google/rpc/status_pb.js";
import { ResponseSchema } from "../../proto/gen/proto/rpc/webrtc/v1/grpc_pb.js";
import { callHeaders, headersFrame, messageFrames, metadataOf, PACKET_BYTES, statusOf, trailersFrame } from "../../targets/linux/server/webrtc/channel-frames.js";

describe("Response frames", () => {
  it("carry the stream, headers' metadata, packets and trailers as the schema reads them", () => {
    const id = 2n ** 40n + 3n;
    const headers = fromBinary(ResponseSchema, headersFrame(id, new Headers({ "content-type": "application/grpc", opid: "abc" })));
    expect(headers.stream?.id).toBe(id);
    expect(headers.type.case).toBe("headers");
    expect(headers.type.case === "headers" && headers.type.value.metadata?.md.opid?.values).toEqual(["abc"]);
    const empty = fromBinary(ResponseSchema, headersFrame(1n, new Headers()));
    expect(empty.type.case === "headers" && empty.type.value.metadata).toBeUndefined();

    const message = new Uint8Array(PACKET_BYTES * 2 + 5).map((_, i) => i % 251);
    const frames = messageFrames(id, message).map((frame) => fromBinary(ResponseSchema, frame));
    const packets = frames.map((frame) => (frame.type.case === "message" ? frame.type.value.packetMessage! : undefined)!);
    expect(packets.map((p) => [p.data.length, p.eom])).toEqual([[PACKET_BYTES, false], [PACKET_BYTES, false], [5, true]]);
    expect(Buffer.concat(packets.map((p) => p.data))).toEqual(Buffer.from(message));
    const none = messageFrames(1n, new Uint8Array()).map((frame) => fromBinary(ResponseSchema, frame));
    expect(none.map((f) => f.type.case === "message" && [f.type.value.packetMessage?.data.length, f.type.value.packetMessage?.eom])).toEqual([[0, true]]);

    const trailer = new Headers({ "grpc-status": "5", "grpc-message": "no%20such%20thing", opid: "abc" });
    const trailers = fromBinary(ResponseSchema, trailersFrame(id, statusOf(trailer), metadataOf(trailer)));
    expect(trailers.type.case === "trailers" && [trailers.type.value.status?.code, trailers.type.value.status?.message]).toEqual([5, "no such thing"]);
    expect(trailers.type.case === "trailers" && Object.keys(trailers.type.value.metadata?.md ?? {})).toEqual(["opid"]);
    const ok = fromBinary(ResponseSchema, trailersFrame(1n, create(StatusSchema, { code: 0 })));
    expect(ok.type.case === "trailers" && ok.type.value.status?.code).toBe(0);
  });

  it("take a call's metadata as headers, keeping the transport's own fields the server's", () => {
    const headers = callHeaders({
      method: "/a.B/C",
      metadata: { md: { Authorization: { values: ["Bearer x"] }, "content-type": { values: ["text/plain"] }, ":path": { values: ["/evil"] }, "viam-sid": { values: ["s1", "s2"] } } },
      timeout: { seconds: 2n, nanos: 500_000_000 },
    } as never);
    expect(headers).toMatchObject({ ":path": "/a.B/C", ":method": "POST", "content-type": "application/grpc+proto", authorization: "Bearer x", "viam-sid": "s1, s2", "grpc-timeout": "2500m" });
  });
});
