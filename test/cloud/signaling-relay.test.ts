// svc-cloud relays WebRTC signaling between a caller and a machine holding an Answer stream, over
// real HTTP/2 with connect-node clients: the offer reaches the machine with a uuid, its deadline
// and svc-cloud's ICE servers; the answer and the candidates pass both ways; the machine's done
// ends the Call; a caller's last candidates after that are taken and dropped. The Answer stream
// opens with a heartbeat and repeats one on the clock, a newer stream of the same part takes the
// older one's place, and a revoked part key stops answering. In this process, on a clock the test
// moves; no WebRTC runs (the relay sees only text).
import { createClient } from "@connectrpc/connect";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AuthService } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import type { AnswerRequest } from "../../proto/gen/proto/rpc/webrtc/v1/signaling_pb.js";
import { ANSWER_HEARTBEAT_MS } from "../../targets/cloud/api/signaling-answer.js";
import { revokeApiKey } from "../../targets/cloud/storage/api-keys.js";
import { createMachine } from "../../targets/cloud/storage/fleet.js";
import { cloudTransport, signIn } from "../helpers/cloud-client.js";
import { startInProcessCloud, type InProcessCloud } from "../helpers/cloud-in-process.js";
import { answeringMachine, partNames, placeCall, signalingClient, type PartNames, type SignalingMachine } from "../helpers/cloud-signaling.js";
import { eventually } from "../helpers/eventually.js";

let cloud: InProcessCloud;
const machines: SignalingMachine[] = [];
let orgToken: string;
let ownerToken: string;

beforeAll(async () => {
  cloud = await startInProcessCloud();
  orgToken = await signIn(cloud.url, cloud.init.api_key.id, cloud.init.api_key.key);
  const auth = createClient(AuthService, cloudTransport(cloud.url));
  ownerToken = (await auth.authenticate({ entity: "owner@example.com", credentials: { type: "password", payload: "correct horse" } })).accessToken;
});
afterEach(async () => {
  for (const machine of machines.splice(0)) machine.drop();
  // However a test ended, the relay holds nothing after it.
  await eventually(() => (cloud.server.context.signaling.counts().answerers === 0 && cloud.server.context.signaling.counts().calls === 0) || undefined, "the relay to let go");
});
afterAll(() => cloud?.stop());

const relay = () => cloud.server.context.signaling;
const isInit = (r: AnswerRequest) => r.stage.case === "init";

/** A new machine of the organisation, with its part key and names. */
async function newPart(name: string) {
  const made = await createMachine(cloud.server.context.store.db, { locationId: cloud.init.location_id, organizationId: cloud.init.organization_id, name, editedBy: "test", now: cloud.clock.now() });
  return { ...made, names: await partNames(cloud.url, made.partId, made.partKey) };
}

/** The machine answering for both its names, once svc-cloud's opening heartbeat says it is registered. */
async function answering(partKey: { id: string; key: string }, names: PartNames): Promise<SignalingMachine> {
  const machine = await answeringMachine(cloud.url, partKey, [names.fqdn, names.localFqdn]);
  machines.push(machine);
  await machine.next("the opening heartbeat", (r) => r.stage.case === "heartbeat");
  return machine;
}

describe("a call relayed through svc-cloud", () => {
  it("brings the offer to the machine, the answer and candidates back, the caller's candidates and done to it, and ends at the machine's done", async () => {
    const part = await newPart("relayed");
    const machine = await answering(part.partKey, part.names);
    const caller = signalingClient(cloud.url, orgToken);
    const call = placeCall(caller, part.names.fqdn, "offer-sdp");

    const offer = await machine.next("the offer", isInit);
    const init = offer.stage.case === "init" ? offer.stage.value : undefined;
    expect(offer.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(init?.sdp).toBe("offer-sdp");
    expect(init?.optionalConfig).toMatchObject({ additionalIceServers: [], disableTrickle: false });
    expect(timestampMs(init!.deadline!)).toBe(cloud.clock.now() + 10_000);

    machine.send({ uuid: offer.uuid, stage: { case: "init", value: { sdp: "answer-sdp" } } });
    machine.send({ uuid: offer.uuid, stage: { case: "update", value: { candidate: { candidate: "candidate:machine 1", sdpMid: "0", sdpmLineIndex: 0 } } } });
    expect(await call.uuid()).toBe(offer.uuid);
    await eventually(() => call.responses.length === 2 || undefined, "the answer and the machine's candidate");
    expect(call.responses.map((r) => r.stage.case)).toEqual(["init", "update"]);
    expect(call.responses[0]!.stage.value).toMatchObject({ sdp: "answer-sdp" });
    expect(call.responses[1]!.stage.value).toMatchObject({ candidate: { candidate: "candidate:machine 1", sdpMid: "0", sdpmLineIndex: 0 } });

    const host = { headers: { "rpc-host": part.names.fqdn } };
    await caller.callUpdate({ uuid: offer.uuid, update: { case: "candidate", value: { candidate: "candidate:caller 1", sdpMid: "0" } } }, host);
    await caller.callUpdate({ uuid: offer.uuid, update: { case: "done", value: true } }, host);
    await machine.next("the caller's candidate", (r) => r.uuid === offer.uuid && r.stage.case === "update");
    await machine.next("the caller's done", (r) => r.uuid === offer.uuid && r.stage.case === "done");
    const update = machine.requests.find((r) => r.stage.case === "update")!;
    expect(update.stage.value).toMatchObject({ candidate: { candidate: "candidate:caller 1", sdpMid: "0" } });

    machine.send({ uuid: offer.uuid, stage: { case: "done", value: {} } });
    expect(await call.ended).toBe("completed");
    // A last candidate sent after the machine finished is taken, and goes nowhere.
    await expect(caller.callUpdate({ uuid: offer.uuid, update: { case: "candidate", value: { candidate: "candidate:late" } } }, host)).resolves.toBeDefined();
    expect(machine.requests.filter((r) => r.stage.case === "update")).toHaveLength(1);
    expect(relay().counts()).toMatchObject({ calls: 0, ended: expect.any(Number) });
  });

  it("reaches the machine by its local name too, for a person signed in, and says whether to trickle", async () => {
    const part = await newPart("by-local-name");
    const machine = await answering(part.partKey, part.names);
    const call = placeCall(signalingClient(cloud.url, ownerToken), part.names.localFqdn.toUpperCase(), "offer-2", { disableTrickle: true });
    const offer = await machine.next("the offer", isInit);
    expect(offer.stage.value).toMatchObject({ sdp: "offer-2", optionalConfig: { disableTrickle: true } });
    machine.send({ uuid: offer.uuid, stage: { case: "init", value: { sdp: "answer-2" } } });
    machine.send({ uuid: offer.uuid, stage: { case: "done", value: {} } });
    expect(await call.ended).toBe("completed");
    expect(call.responses.map((r) => r.stage.case)).toEqual(["init"]);
  });

  it("ends the call with the machine's error, and answers OptionalWebRTCConfig for a machine the caller may reach", async () => {
    const part = await newPart("refuses");
    const machine = await answering(part.partKey, part.names);
    const caller = signalingClient(cloud.url, orgToken);
    const config = await caller.optionalWebRTCConfig({}, { headers: { "rpc-host": part.names.fqdn } });
    expect(config.config).toMatchObject({ additionalIceServers: [], disableTrickle: false });
    const call = placeCall(caller, part.names.fqdn, "offer-3");
    const offer = await machine.next("the offer", isInit);
    machine.send({ uuid: offer.uuid, stage: { case: "error", value: { status: { code: 8, message: "too many connections" } } } });
    expect(await call.ended).toBe("[resource_exhausted] too many connections");
  });

  it("passes at most 64 candidates each way in one call", async () => {
    const part = await newPart("chatty");
    const machine = await answering(part.partKey, part.names);
    const caller = signalingClient(cloud.url, orgToken);
    const call = placeCall(caller, part.names.fqdn, "offer-4");
    const offer = await machine.next("the offer", isInit);
    machine.send({ uuid: offer.uuid, stage: { case: "init", value: { sdp: "answer-4" } } });
    for (let i = 0; i < 70; i++) machine.send({ uuid: offer.uuid, stage: { case: "update", value: { candidate: { candidate: `candidate:m${i}` } } } });
    const host = { headers: { "rpc-host": part.names.fqdn } };
    for (let i = 0; i < 70; i++) await caller.callUpdate({ uuid: offer.uuid, update: { case: "candidate", value: { candidate: `candidate:c${i}` } } }, host);
    await caller.callUpdate({ uuid: offer.uuid, update: { case: "done", value: true } }, host);
    await machine.next("the caller's done", (r) => r.stage.case === "done");
    machine.send({ uuid: offer.uuid, stage: { case: "done", value: {} } });
    expect(await call.ended).toBe("completed");
    expect(call.responses.filter((r) => r.stage.case === "update")).toHaveLength(64);
    expect(machine.requests.filter((r) => r.uuid === offer.uuid && r.stage.case === "update")).toHaveLength(64);
  });
});

describe("a machine's Answer stream", () => {
  it("hears a heartbeat on the clock, and ends once its part key is revoked", async () => {
    const part = await newPart("heartbeat");
    const machine = await answering(part.partKey, part.names);
    const beats = () => machine.requests.filter((r) => r.stage.case === "heartbeat" && r.uuid === "").length;
    expect(beats()).toBe(1);
    cloud.clock.advance(ANSWER_HEARTBEAT_MS);
    await eventually(() => beats() === 2 || undefined, "the second heartbeat");
    cloud.clock.advance(ANSWER_HEARTBEAT_MS);
    await eventually(() => beats() === 3 || undefined, "the third heartbeat");
    await revokeApiKey(cloud.server.context.store.db, part.partKey.id, cloud.clock.now());
    cloud.clock.advance(ANSWER_HEARTBEAT_MS);
    expect(await machine.ended).toMatch(/^\[unauthenticated\] the API key of this token was revoked/);
    expect(await relay().answererFor(part.names.fqdn)).toBeUndefined();
  });

  it("gives way to a newer stream of the same part, which then takes the calls", async () => {
    const part = await newPart("reconnects");
    const older = await answering(part.partKey, part.names);
    const newer = await answering(part.partKey, part.names);
    expect(await older.ended).toBe("[aborted] a newer Answer stream of this part took its place");
    expect(cloud.logs.some((line) => line.includes(`part ${part.partId}'s Answer stream`) && line.includes("took the place of the one from"))).toBe(true);
    const call = placeCall(signalingClient(cloud.url, orgToken), part.names.fqdn, "offer-5");
    const offer = await newer.next("the offer, on the newer stream", isInit);
    expect(older.requests.some(isInit)).toBe(false);
    newer.send({ uuid: offer.uuid, stage: { case: "init", value: { sdp: "answer-5" } } });
    newer.send({ uuid: offer.uuid, stage: { case: "done", value: {} } });
    expect(await call.ended).toBe("completed");
  });

  it("answers no more once the machine closes its side", async () => {
    const part = await newPart("leaves");
    const machine = await answering(part.partKey, part.names);
    expect((await relay().answererFor(part.names.localFqdn))?.partId).toBe(part.partId);
    machine.close();
    expect(await machine.ended).toBe("completed");
    await eventually(async () => (await relay().answererFor(part.names.fqdn)) === undefined || undefined, "the names to be let go");
  });
});
