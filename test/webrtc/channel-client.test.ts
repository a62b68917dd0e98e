// The caller's side of gRPC over a WebRTC data channel (caller/channel-client.ts), without WebRTC:
// what it sends is read back through the proto.rpc.webrtc.v1 schema and, on the answering
// side's own reader (channel-server's ChannelStream), reassembled into the message sent; what it
// is given is written by the answering side's own frames (channel-frames.ts). Each call a new
// stream; a message cut into packets of at most the packet size, the last ending the message and
// the stream; the headers carrying the method, metadata and deadline; an error status in the
// trailers becoming that code; an answer past maxAnswerBytes RESOURCE_EXHAUSTED with the stream
// reset; a cancelled call reset; the channel going away failing every call UNAVAILABLE.
import { create, fromBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { StatusSchema } from "../../proto/gen/google/rpc/status_pb.js";
import { RequestSchema, type Request } from "../../proto/gen/proto/rpc/webrtc/v1/grpc_pb.js";
import { createChannelClient } from "../../targets/linux/server/webrtc/caller/index.js";
import { callHeaders, headersFrame, messageFrames, PACKET_BYTES, trailersFrame } from "../../targets/linux/server/webrtc/channel-frames.js";
import { ChannelStream } from "../../targets/linux/server/webrtc/channel-stream.js";

/** A client whose sent frames collect, decoded, in `sent`. */
function client(options: { packetBytes?: number } = {}) {
  const sent: Request[] = [];
  const channel = createChannelClient({ peer: "remote pi", send: (frame) => void sent.push(fromBinary(RequestSchema, frame)), ...options });
  const answer = (...frames: Uint8Array[]) => frames.forEach((frame) => channel.receive(frame));
  return { channel, sent, answer };
}

const ok = create(StatusSchema, { code: 0 });
const bytes = (n: number) => new Uint8Array(n).map((_, i) => i % 251);

async function failure(promise: Promise<unknown>): Promise<{ code: Code; message: string }> {
  return promise.then(
    () => ({ code: Code.Unknown, message: "answered" }),
    (thrown: unknown) => ({ code: ConnectError.from(thrown).code, message: ConnectError.from(thrown).rawMessage }),
  );
}

describe("a call's frames", () => {
  it("start a new stream for each call, with the method, the metadata and the deadline in its headers", async () => {
    const { channel, sent, answer } = client();
    const first = channel.call({ path: "/viam.robot.v1.RobotService/ResourceNames", message: bytes(3), headers: { Authorization: "Bearer t0k3n" }, timeoutMs: 2_500 });
    const second = channel.call({ path: "/a.B/C", message: bytes(1) });
    const headers = sent.filter((r) => r.type.case === "headers");
    expect(headers.map((r) => r.stream?.id)).toEqual([0n, 1n]);
    const opened = headers[0]!.type.value as Extract<Request["type"], { case: "headers" }>["value"];
    // As the answering side reads them.
    expect(callHeaders(opened)).toMatchObject({ ":path": "/viam.robot.v1.RobotService/ResourceNames", authorization: "Bearer t0k3n", "grpc-timeout": "2500m" });
    answer(headersFrame(0n, new Headers()), ...messageFrames(0n, bytes(7)), trailersFrame(0n, ok));
    answer(...messageFrames(1n, bytes(2)), trailersFrame(1n, ok));
    expect(await first).toEqual(bytes(7));
    expect(await second).toEqual(bytes(2));
    expect(channel.running).toBe(0);
  });

  it("cut a message larger than a packet into packets, the last ending the message and the stream", async () => {
    const { channel, sent } = client();
    const message = bytes(PACKET_BYTES * 2 + 100);
    void channel.call({ path: "/a.B/C", message });
    const packets = sent.flatMap((r) => (r.type.case === "message" ? [r.type.value] : []));
    expect(packets.map((p) => [p.hasMessage, p.packetMessage?.data.length, p.packetMessage?.eom, p.eos])).toEqual([
      [true, PACKET_BYTES, false, false],
      [true, PACKET_BYTES, false, false],
      [true, 100, true, true],
    ]);
    // The answering side's own reader makes the one message of them, in its gRPC envelope.
    const stream = new ChannelStream({ id: 0n, oneMessage: true, maxMessageBytes: 1 << 20, send: () => true, drained: async () => {}, forget: () => {} });
    const body: Buffer[] = [];
    stream.body.on("data", (chunk: Buffer) => body.push(chunk));
    const ended = new Promise((resolve) => stream.body.on("end", resolve));
    for (const p of packets) expect(stream.packet(p.packetMessage!.data, p.packetMessage!.eom)).toBe(true);
    await ended;
    const envelope = Buffer.concat(body);
    expect(envelope.readUInt32BE(1)).toBe(message.length);
    expect(new Uint8Array(envelope.subarray(5))).toEqual(message);
  });

  it("use the packet size asked for, and send an empty message as one empty packet", () => {
    const { channel, sent } = client({ packetBytes: 1000 });
    void channel.call({ path: "/a.B/C", message: bytes(2500) });
    void channel.call({ path: "/a.B/D", message: new Uint8Array() });
    const sizes = (id: bigint) => sent.flatMap((r) => (r.stream?.id === id && r.type.case === "message" ? [[r.type.value.packetMessage?.data.length, r.type.value.eos]] : []));
    expect(sizes(0n)).toEqual([[1000, false], [1000, false], [500, true]]);
    expect(sizes(1n)).toEqual([[0, true]]);
  });
});

describe("a call's answer", () => {
  it("reads an error status in the trailers as that code and message, a code outside gRPC's as UNKNOWN", async () => {
    const { channel, answer } = client();
    const denied = channel.call({ path: "/a.B/C", message: bytes(1) });
    const odd = channel.call({ path: "/a.B/C", message: bytes(1) });
    answer(trailersFrame(0n, create(StatusSchema, { code: Code.PermissionDenied, message: "not for you" })));
    answer(headersFrame(1n, new Headers()), trailersFrame(1n, create(StatusSchema, { code: 99, message: "odd" })));
    expect(await failure(denied)).toEqual({ code: Code.PermissionDenied, message: "not for you" });
    expect(await failure(odd)).toEqual({ code: Code.Unknown, message: "odd" });
  });

  it("refuses an answer past maxAnswerBytes RESOURCE_EXHAUSTED as it arrives, and resets its stream", async () => {
    const { channel, sent, answer } = client();
    const call = channel.call({ path: "/a.B/C", message: bytes(1), maxAnswerBytes: PACKET_BYTES + 10 });
    const frames = messageFrames(0n, bytes(PACKET_BYTES * 3));
    answer(headersFrame(0n, new Headers()), frames[0]!, frames[1]!);
    expect(await failure(call)).toEqual({ code: Code.ResourceExhausted, message: `remote pi answered with more than ${PACKET_BYTES + 10} bytes` });
    expect(sent.at(-1)).toMatchObject({ stream: { id: 0n }, type: { case: "rstStream", value: true } });
    // What still comes for it goes nowhere.
    answer(frames[2]!, trailersFrame(0n, ok));
    expect(channel.running).toBe(0);
  });

  it("refuses an answer without its message, or with two, INTERNAL", async () => {
    const { channel, answer } = client();
    const none = channel.call({ path: "/a.B/C", message: bytes(1) });
    const two = channel.call({ path: "/a.B/C", message: bytes(1) });
    answer(trailersFrame(0n, ok));
    answer(...messageFrames(1n, bytes(1)), ...messageFrames(1n, bytes(1)));
    expect(await failure(none)).toEqual({ code: Code.Internal, message: "remote pi's answer has no message" });
    expect(await failure(two)).toEqual({ code: Code.Internal, message: "remote pi's answer has more than one message" });
  });

  it("resets the stream of a call cancelled, which ends CANCELLED, and sends nothing for one cancelled before it began", async () => {
    const { channel, sent } = client();
    const abort = new AbortController();
    const call = channel.call({ path: "/a.B/C", message: bytes(1), cancel: abort.signal });
    abort.abort();
    expect((await failure(call)).code).toBe(Code.Canceled);
    expect(sent.map((r) => r.type.case)).toEqual(["headers", "message", "rstStream"]);
    expect(sent.at(-1)?.stream?.id).toBe(0n);
    const late = channel.call({ path: "/a.B/C", message: bytes(1), cancel: abort.signal });
    expect((await failure(late)).code).toBe(Code.Canceled);
    expect(sent).toHaveLength(3);
  });

  it("fails every call in flight UNAVAILABLE when the channel goes away, and later calls at once", async () => {
    const { channel, answer } = client();
    const calls = [channel.call({ path: "/a.B/C", message: bytes(1) }), channel.call({ path: "/a.B/D", message: bytes(1) })];
    channel.close("connection failed");
    for (const call of calls) expect(await failure(call)).toEqual({ code: Code.Unavailable, message: "the WebRTC connection to remote pi is gone: connection failed" });
    expect(await failure(channel.call({ path: "/a.B/C", message: bytes(1) }))).toEqual({ code: Code.Unavailable, message: "the WebRTC connection to remote pi is gone: connection failed" });
    answer(...messageFrames(0n, bytes(1)), trailersFrame(0n, ok));
    expect(channel.running).toBe(0);
  });

  it("drops a frame that is not a Response, and one for no call, the calls going on", async () => {
    const { channel, answer } = client();
    const call = channel.call({ path: "/a.B/C", message: bytes(1) });
    channel.receive(new Uint8Array([0xff, 0xff, 0xff]));
    answer(...messageFrames(9n, bytes(1)), trailersFrame(9n, ok));
    answer(...messageFrames(0n, bytes(4)), trailersFrame(0n, ok));
    expect(await call).toEqual(bytes(4));
  });
});
