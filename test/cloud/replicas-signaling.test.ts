// WebRTC signaling through svc-cloud replicas on one real PostgreSQL: a machine holds its Answer
// stream at replica A, a caller's Call reaches replica B and its CallUpdates replica C, and the
// exchange runs as through one svc-cloud: the offer (past NOTIFY's 8000 bytes) to the machine, the
// answer and candidates back, the caller's candidates and done to it, the call ended by the
// machine's done. The same checks hold across replicas: a name nobody answers, another caller's
// call, a hang-up told to the machine. A newer Answer stream at B ends the older one at A and
// takes the calls. When replica A is killed, a call to a machine it held ends UNAVAILABLE at once
// rather than hanging, and the machine, answering again at B, is reached as before.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AnswerRequest } from "../../proto/gen/proto/rpc/webrtc/v1/signaling_pb.js";
import { signIn } from "../helpers/cloud-client.js";
import type { CloudProcess, InitResult } from "../helpers/cloud-process.js";
import { answeringMachine, partNames, placeCall, signalingClient, type PartNames, type SignalingMachine } from "../helpers/cloud-signaling.js";
import { eventually } from "../helpers/eventually.js";
import { postgresReplicas } from "../helpers/postgres-replicas.js";

const postgres = postgresReplicas();
let a: CloudProcess;
let b: CloudProcess;
let c: CloudProcess;
let init: InitResult;
const machines: SignalingMachine[] = [];

beforeAll(async () => {
  ({ init, clouds: [a, b, c] } = await postgres.replicas(3));
});
afterEach(() => {
  for (const machine of machines.splice(0)) machine.drop();
});

const isInit = (r: AnswerRequest) => r.stage.case === "init";

async function newPart(name: string): Promise<{ partId: string; partKey: { id: string; key: string }; names: PartNames }> {
  const made = a.createMachine(name);
  const partKey = made.cloud.api_key;
  return { partId: made.cloud.id, partKey, names: await partNames(a.url, made.cloud.id, partKey) };
}

async function answering(at: CloudProcess, partKey: { id: string; key: string }, names: PartNames): Promise<SignalingMachine> {
  const machine = await answeringMachine(at.url, partKey, [names.fqdn, names.localFqdn]);
  machines.push(machine);
  await machine.next("the opening heartbeat", (r) => r.stage.case === "heartbeat");
  return machine;
}

describe("signaling across svc-cloud replicas", () => {
  it("relays a whole exchange between a caller at B, its updates at C, and a machine answering at A", async () => {
    const part = await newPart("held-by-a");
    const machine = await answering(a, part.partKey, part.names);
    const token = await signIn(b.url, init.api_key.id, init.api_key.key);
    const offerSdp = `v=0\r\n${"a=candidate:1 1 udp 2122260223 192.0.2.1 50000 typ host\r\n".repeat(400)}`;
    const call = placeCall(signalingClient(b.url, token), part.names.fqdn, offerSdp);
    const offer = await machine.next("the offer, relayed from B", isInit);
    expect(offer.stage.value).toMatchObject({ sdp: offerSdp });

    machine.send({ uuid: offer.uuid, stage: { case: "init", value: { sdp: "answer-sdp" } } });
    machine.send({ uuid: offer.uuid, stage: { case: "update", value: { candidate: { candidate: "candidate:machine 1", sdpMid: "0", sdpmLineIndex: 0 } } } });
    expect(await call.uuid()).toBe(offer.uuid);
    await eventually(() => call.responses.length === 2 || undefined, "the answer and the machine's candidate at B");
    expect(call.responses[0]!.stage.value).toMatchObject({ sdp: "answer-sdp" });

    const atC = signalingClient(c.url, token);
    const host = { headers: { "rpc-host": part.names.fqdn } };
    await atC.callUpdate({ uuid: offer.uuid, update: { case: "candidate", value: { candidate: "candidate:caller 1", sdpMid: "0" } } }, host);
    await atC.callUpdate({ uuid: offer.uuid, update: { case: "done", value: true } }, host);
    await machine.next("the caller's done, from C", (r) => r.uuid === offer.uuid && r.stage.case === "done");
    expect(machine.requests.find((r) => r.stage.case === "update")?.stage.value).toMatchObject({ candidate: { candidate: "candidate:caller 1" } });
    machine.send({ uuid: offer.uuid, stage: { case: "done", value: {} } });
    expect(await call.ended).toBe("completed");
  });

  it("keeps every check across replicas: unknown names, other callers' calls, hang-ups", async () => {
    const part = await newPart("checked");
    const machine = await answering(a, part.partKey, part.names);
    const token = await signIn(b.url, init.api_key.id, init.api_key.key);
    expect(await placeCall(signalingClient(b.url, token), "nobody.example.com", "offer").ended).toBe("[not_found] no machine answers for host nobody.example.com");

    const call = placeCall(signalingClient(b.url, token), part.names.fqdn, "offer-x");
    const offer = await machine.next("the offer", isInit);
    // Another principal (the machine's own part key is no caller of itself) may not update it.
    const other = await newPart("other-caller");
    const otherToken = await signIn(c.url, other.partKey.id, other.partKey.key);
    await expect(signalingClient(c.url, otherToken).callUpdate({ uuid: offer.uuid, update: { case: "done", value: true } }, { headers: { "rpc-host": part.names.fqdn } })).rejects.toThrow(/not_found/);
    await expect(signalingClient(c.url, token).callUpdate({ uuid: "not-a-call", update: { case: "done", value: true } }, { headers: { "rpc-host": part.names.fqdn } })).rejects.toThrow(/no call not-a-call to update/);

    call.hangUp();
    await machine.next("the hang-up told to the machine", (r) => r.uuid === offer.uuid && r.stage.case === "error");
  });

  it("lets a newer Answer stream at another replica take the older one's place and its calls", async () => {
    const part = await newPart("moves");
    const older = await answering(a, part.partKey, part.names);
    const newer = await answering(b, part.partKey, part.names);
    expect(await older.ended).toBe("[aborted] a newer Answer stream of this part took its place");
    const token = await signIn(c.url, init.api_key.id, init.api_key.key);
    const call = placeCall(signalingClient(c.url, token), part.names.fqdn, "offer-moved");
    const offer = await newer.next("the offer, at the newer stream", isInit);
    newer.send({ uuid: offer.uuid, stage: { case: "init", value: { sdp: "answer-moved" } } });
    newer.send({ uuid: offer.uuid, stage: { case: "done", value: {} } });
    expect(await call.ended).toBe("completed");
    expect(older.requests.some(isInit)).toBe(false);
  });

  it("ends calls to a killed replica's machines UNAVAILABLE, and reaches them again once they answer elsewhere", async () => {
    const stays = await newPart("stays-on-a");
    const moves = await newPart("moves-on");
    await answering(a, stays.partKey, stays.names);
    await answering(a, moves.partKey, moves.names);
    a.child.kill("SIGKILL");
    const again = await answering(b, moves.partKey, moves.names);
    const token = await signIn(c.url, init.api_key.id, init.api_key.key);
    expect(await placeCall(signalingClient(c.url, token), stays.names.fqdn, "offer-lost").ended).toMatch(/^\[unavailable\] the replica holding the machine did not take the call/);
    const call = placeCall(signalingClient(c.url, token), moves.names.fqdn, "offer-found");
    const offer = await again.next("the offer, at B", isInit);
    again.send({ uuid: offer.uuid, stage: { case: "init", value: { sdp: "answer-found" } } });
    again.send({ uuid: offer.uuid, stage: { case: "done", value: {} } });
    expect(await call.ended).toBe("completed");
  });
});
