// A WebRTC client written by hand for tests that send what no SDK would: it signals through
// svc-server's SignalingService with connect-node, opens the two negotiated data channels with
// node-datachannel's RTCPeerConnection, and sends and reads proto.rpc.webrtc.v1 frames as given.
import { create, fromBinary, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { RTCPeerConnection, type RTCDataChannel } from "node-datachannel/polyfill";
import { RequestSchema, ResponseSchema, type Response } from "../../proto/gen/proto/rpc/webrtc/v1/grpc_pb.js";
import { SignalingService } from "../../proto/gen/proto/rpc/webrtc/v1/signaling_pb.js";

export type Signaling = Client<typeof SignalingService>;

export function signalingClient(url: string): Signaling {
  return createClient(SignalingService, createGrpcTransport({ baseUrl: url }));
}

/** An offer as the Viam clients send it: the base64 of the JSON session description. */
export function encodeDescription(description: { type: string; sdp: string }): string {
  return Buffer.from(JSON.stringify({ type: description.type, sdp: description.sdp })).toString("base64");
}

export interface RawConnection {
  readonly pc: RTCPeerConnection;
  send(request: MessageInitShape<typeof RequestSchema>): void;
  sendBytes(bytes: Uint8Array): void;
  /** Waits for the next frame for stream `id` matching `kind` ("headers", "message", "trailers"). */
  next(id: bigint, kind: NonNullable<Response["type"]["case"]>): Promise<Response>;
  close(): void;
}

/** A fresh RTCPeerConnection with the two channels and its offer, not yet sent. */
export async function newOffer(): Promise<{ pc: RTCPeerConnection; data: RTCDataChannel; sdp: string }> {
  const pc = new RTCPeerConnection();
  const data = pc.createDataChannel("data", { id: 0, negotiated: true, ordered: true });
  pc.createDataChannel("negotiation", { id: 1, negotiated: true, ordered: true });
  data.binaryType = "arraybuffer";
  await pc.setLocalDescription(await pc.createOffer());
  // Without trickle: wait for every candidate to be in the offer.
  await new Promise<void>((resolve) => {
    if (pc.iceGatheringState === "complete") return resolve();
    pc.addEventListener("icegatheringstatechange", () => pc.iceGatheringState === "complete" && resolve());
  });
  return { pc, data, sdp: encodeDescription(pc.localDescription!) };
}

/** A WebRTC connection to the machine at `url` (signaling there for `host`, with `headers` on the signaling calls), its "data" channel open. */
export async function openDataChannel(url: string, host: string, headers: Record<string, string> = {}): Promise<{ pc: RTCPeerConnection; data: RTCDataChannel }> {
  const { pc, data, sdp } = await newOffer();
  const signaling = signalingClient(url);
  for await (const response of signaling.call({ sdp, disableTrickle: true }, { headers: { "rpc-host": host, ...headers } })) {
    if (response.stage.case === "init") {
      const answer = JSON.parse(Buffer.from(response.stage.value.sdp, "base64").toString()) as { type: "answer"; sdp: string };
      await pc.setRemoteDescription(answer);
    }
  }
  await new Promise<void>((resolve, reject) => {
    if (data.readyState === "open") return resolve();
    data.addEventListener("open", () => resolve());
    data.addEventListener("close", () => reject(new Error("the data channel closed before it opened")));
  });
  return { pc, data };
}

/** Connects to the machine at `url` (signaling there for `host`), with `headers` on the signaling calls. */
export async function connectRaw(url: string, host: string, headers: Record<string, string> = {}): Promise<RawConnection> {
  const { pc, data } = await openDataChannel(url, host, headers);
  const received: Response[] = [];
  const waiters: (() => void)[] = [];
  data.addEventListener("message", (event) => {
    received.push(fromBinary(ResponseSchema, new Uint8Array((event as MessageEvent).data as ArrayBuffer)));
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    pc,
    send: (request) => data.send(toBinary(RequestSchema, create(RequestSchema, request))),
    sendBytes: (bytes) => data.send(bytes),
    async next(id, kind) {
      for (;;) {
        const index = received.findIndex((r) => r.stream?.id === id && r.type.case === kind);
        if (index >= 0) return received.splice(index, 1)[0]!;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    close: () => pc.close(),
  };
}
