// svc-server's WebRTC caller (caller/webrtc-caller.ts) with real node-datachannel on both ends,
// signaled through svc-cloud in this process: the caller signs in with a part key of the machine
// it calls (its sibling part), as a remote part does. The answering end is a test stand-in on the
// machine's own answering peer (answering-peer.ts) that echoes each call's message. The caller
// trickles its candidates with CallUpdate once the answer gave the call its uuid, done last, and
// calls on the open channel; the answering end closing fails its calls in flight and is told to
// onGone once. Its bounds and refusals: a host svc-cloud knows no machine for (NOT_FOUND), an
// answer that is no session description (INTERNAL), and a machine that never answers, given up
// at the connect deadline on the caller's own clock (DEADLINE_EXCEEDED), leaving nothing behind.
import { create, fromBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { DataChannel } from "node-datachannel";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "../../core/manual-clock.js";
import { StatusSchema } from "../../proto/gen/google/rpc/status_pb.js";
import { RequestSchema } from "../../proto/gen/proto/rpc/webrtc/v1/grpc_pb.js";
import type { AnswerRequest } from "../../proto/gen/proto/rpc/webrtc/v1/signaling_pb.js";
import { addPart } from "../../targets/cloud/storage/machines-store.js";
import { createMachine } from "../../targets/cloud/storage/fleet.js";
import { createAnsweringPeer, type AnsweringPeer, type IceCandidateText } from "../../targets/linux/server/webrtc/answering-peer.js";
import { dialWebRtc, WEBRTC_CONNECT_DEADLINE_MS, type WebRtcLink } from "../../targets/linux/server/webrtc/caller/index.js";
import { messageFrames, trailersFrame } from "../../targets/linux/server/webrtc/channel-frames.js";
import { decodeOffer, encodeDescription } from "../../targets/linux/server/webrtc/signaling-service.js";
import { loadDataChannelLibrary } from "../../targets/linux/server/webrtc/webrtc-library.js";
import { signIn } from "../helpers/cloud-client.js";
import { startInProcessCloud, type InProcessCloud } from "../helpers/cloud-in-process.js";
import { answeringMachine, partNames, signalingClient, type SignalingMachine } from "../helpers/cloud-signaling.js";
import { eventually } from "../helpers/eventually.js";

let cloud: InProcessCloud;
/** The machine called and the part calling it: two parts of one machine. */
let target: { partKey: { id: string; key: string }; fqdn: string };
let callerToken: string;
const machines: SignalingMachine[] = [];
const closing: Array<{ close(): void }> = [];

beforeAll(async () => {
  cloud = await startInProcessCloud();
  const db = cloud.server.context.store.db;
  const made = await createMachine(db, { locationId: cloud.init.location_id, organizationId: cloud.init.organization_id, name: "rover", editedBy: "test", now: cloud.clock.now() });
  const arm = await addPart(db, { machineId: made.machineId, organizationId: cloud.init.organization_id, name: "arm", editedBy: "test", now: cloud.clock.now() });
  target = { partKey: arm.partKey, fqdn: (await partNames(cloud.url, arm.partId, arm.partKey)).fqdn };
  callerToken = await signIn(cloud.url, made.partKey.id, made.partKey.key);
});
afterEach(async () => {
  for (const item of closing.splice(0)) item.close();
  for (const machine of machines.splice(0)) machine.drop();
  const relay = cloud.server.context.signaling;
  await eventually(() => (relay.counts().answerers === 0 && relay.counts().calls === 0) || undefined, "the relay to let go");
});
afterAll(() => cloud?.stop());

const isInit = (r: AnswerRequest) => r.stage.case === "init";

async function answering(): Promise<SignalingMachine> {
  const machine = await answeringMachine(cloud.url, target.partKey, [target.fqdn]);
  machines.push(machine);
  await machine.next("the opening heartbeat", (r) => r.stage.case === "heartbeat");
  return machine;
}

/** Answers the machine's first offer with a real answering peer that echoes each call's message back. */
async function answerWithEcho(machine: SignalingMachine): Promise<{ peer: AnsweringPeer; opened: Promise<DataChannel> }> {
  const offer = await machine.next("the offer", isInit);
  const uuid = offer.uuid;
  const held: IceCandidateText[] = [];
  let answered = false;
  const sendCandidate = (candidate: IceCandidateText) => machine.send({ uuid, stage: { case: "update", value: { candidate } } });
  let open: (channel: DataChannel) => void = () => {};
  const opened = new Promise<DataChannel>((resolve) => (open = resolve));
  const peer = createAnsweringPeer(await loadDataChannelLibrary(), {
    offer: decodeOffer((offer.stage.value as { sdp: string }).sdp),
    iceServers: [],
    onCandidate: (candidate) => (answered ? sendCandidate(candidate) : held.push(candidate)),
    onGatheringDone: () => undefined,
    onOpen(channel) {
      const gathered = new Map<bigint, Uint8Array[]>();
      channel.onMessage((bytes) => echo(channel, gathered, bytes as Buffer));
      open(channel);
    },
    onClosed: () => undefined,
  });
  closing.push(peer);
  machine.send({ uuid, stage: { case: "init", value: { sdp: encodeDescription(await peer.answer) } } });
  answered = true;
  held.splice(0).forEach(sendCandidate);
  // The caller's candidates, as they come.
  let taken = 0;
  const taking = setInterval(() => {
    const updates = machine.requests.filter((r) => r.uuid === uuid && r.stage.case === "update");
    for (const update of updates.slice(taken)) {
      const candidate = (update.stage.value as { candidate?: { candidate: string; sdpMid?: string } }).candidate;
      if (candidate) peer.addCandidate(candidate.candidate, candidate.sdpMid);
    }
    taken = updates.length;
  }, 10);
  void opened.then(() => clearInterval(taking));
  closing.push({ close: () => clearInterval(taking) });
  return { peer, opened };
}

// Each call's one message, gathered from its packets, sent back as its answer with an OK status.
function echo(channel: DataChannel, gathered: Map<bigint, Uint8Array[]>, bytes: Buffer): void {
  const request = fromBinary(RequestSchema, bytes);
  const id = request.stream!.id;
  if (request.type.case !== "message") return;
  const packets = gathered.get(id) ?? [];
  gathered.set(id, [...packets, request.type.value.packetMessage?.data ?? new Uint8Array()]);
  if (!request.type.value.eos) return;
  for (const frame of messageFrames(id, Buffer.concat(gathered.get(id)!))) channel.sendMessageBinary(frame);
  channel.sendMessageBinary(trailersFrame(id, create(StatusSchema, { code: 0 })));
  gathered.delete(id);
}

function dial(options: { host?: string; clock?: ReturnType<typeof createManualClock>; onGone?: (why: string) => void } = {}): Promise<WebRtcLink> {
  const dialing = dialWebRtc({
    library: loadDataChannelLibrary,
    signaling: signalingClient(cloud.url, callerToken),
    host: options.host ?? target.fqdn,
    peer: "remote arm",
    clock: options.clock ?? createManualClock(0),
    onGone: options.onGone ?? (() => undefined),
  });
  void dialing.then((link) => closing.push(link), () => undefined);
  return dialing;
}

async function failure(promise: Promise<unknown>): Promise<{ code: Code; message: string }> {
  return promise.then(
    () => ({ code: Code.Unknown, message: "connected" }),
    (thrown: unknown) => ({ code: ConnectError.from(thrown).code, message: ConnectError.from(thrown).rawMessage }),
  );
}

describe("the WebRTC caller", () => {
  it("connects through svc-cloud, trickling its candidates once the call has its uuid, and calls on the data channel", async () => {
    const machine = await answering();
    const dialing = dial();
    const { opened } = await answerWithEcho(machine);
    const link = await dialing;
    await opened;
    const message = new Uint8Array(40_000).map((_, i) => i % 253);
    expect(new Uint8Array(await link.call({ path: "/a.B/C", message }))).toEqual(message);
    expect(new Uint8Array(await link.call({ path: "/a.B/C", message: new Uint8Array([1, 2, 3]) }))).toEqual(new Uint8Array([1, 2, 3]));
    await eventually(() => machine.requests.some((r) => r.stage.case === "done") || undefined, "the caller's done");
    const stages = machine.requests.filter((r) => r.uuid !== "").map((r) => r.stage.case);
    expect(stages[0]).toBe("init");
    expect(stages.filter((s) => s === "update").length).toBeGreaterThan(0);
    expect(stages.at(-1)).toBe("done");
  });

  it("fails its calls in flight UNAVAILABLE and tells onGone once when the answering end closes", async () => {
    const machine = await answering();
    const gone: string[] = [];
    const dialing = dial({ onGone: (why) => gone.push(why) });
    const { peer, opened } = await answerWithEcho(machine);
    const link = await dialing;
    const channel = await opened;
    channel.onMessage(() => undefined); // Answers nothing from now on.
    const call = link.call({ path: "/a.B/C", message: new Uint8Array([1]) });
    peer.close();
    const failed = await failure(call);
    expect(failed.code).toBe(Code.Unavailable);
    expect(failed.message).toMatch(/^the WebRTC connection to remote arm is gone: /);
    await eventually(() => gone.length > 0 || undefined, "onGone told");
    expect(gone).toHaveLength(1);
    expect((await failure(link.call({ path: "/a.B/C", message: new Uint8Array([1]) }))).code).toBe(Code.Unavailable);
    link.close();
    expect(gone).toHaveLength(1);
  });

  it("says NOT_FOUND for a host no machine answers for, before offering anything", async () => {
    expect(await failure(dial({ host: "nobody.main-00000000.localhost" }))).toEqual({ code: Code.NotFound, message: "no machine answers for host nobody.main-00000000.localhost" });
  });

  it("refuses an answer that is no session description INTERNAL", async () => {
    const machine = await answering();
    const dialing = dial();
    const offer = await machine.next("the offer", isInit);
    machine.send({ uuid: offer.uuid, stage: { case: "init", value: { sdp: "not an answer" } } });
    expect(await failure(dialing)).toEqual({ code: Code.Internal, message: "the answer is not the base64 of a JSON session description" });
  });

  it("gives up at its connect deadline on its own clock when the machine never answers, DEADLINE_EXCEEDED, and hangs up", async () => {
    const machine = await answering();
    const clock = createManualClock(0);
    const dialing = dial({ clock });
    await machine.next("the offer", isInit);
    clock.advance(WEBRTC_CONNECT_DEADLINE_MS - 1);
    expect(cloud.server.context.signaling.counts().calls).toBe(1);
    clock.advance(1);
    expect(await failure(dialing)).toEqual({ code: Code.DeadlineExceeded, message: `remote arm did not connect over WebRTC within ${WEBRTC_CONNECT_DEADLINE_MS} ms` });
    const told = await machine.next("the machine told the caller left", (r) => r.stage.case === "error");
    expect(told.stage.value).toMatchObject({ status: { code: Code.Canceled } });
    expect(clock.pending()).toBe(0);
  });
});
