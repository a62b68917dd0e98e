// The hostile half of svc-cloud's WebRTC signaling: no credentials; a key of another
// organisation, a viewer, an unknown host and a machine not answering all hear the very same
// NOT_FOUND; a part key calls the other parts of its own machine and no one else (another
// machine's part, another organisation's: that same NOT_FOUND; its own name: never itself), nor
// answers for another part's names; an oversize offer; a
// flood of calls from one principal stops at 8 while others are still served; a CallUpdate for
// someone else's call; a machine dropping mid-call; a machine never answering; a caller going
// away. In this process, on a clock the test moves.
import { ConnectError, createClient } from "@connectrpc/connect";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AuthService } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { SignalingService, type AnswerRequest } from "../../proto/gen/proto/rpc/webrtc/v1/signaling_pb.js";
import { ANSWER_HEARTBEAT_MS } from "../../targets/cloud/api/signaling-answer.js";
import { RELAY_LIMITS } from "../../targets/cloud/fleet/signaling-relay.js";
import { createApiKey } from "../../targets/cloud/storage/api-keys.js";
import { addMember, createLocation, createMachine, createOrganization, createUser } from "../../targets/cloud/storage/fleet.js";
import { addPart } from "../../targets/cloud/storage/machines-store.js";
import { hashPassword } from "../../targets/cloud/storage/secrets.js";
import { cloudTransport, signIn } from "../helpers/cloud-client.js";
import { startInProcessCloud, type InProcessCloud } from "../helpers/cloud-in-process.js";
import { answeringMachine, partNames, placeCall, signalingClient, type PlacedCall, type SignalingMachine } from "../helpers/cloud-signaling.js";
import { eventually } from "../helpers/eventually.js";

let cloud: InProcessCloud;
let orgToken: string;
let strangerToken: string;
let viewerToken: string;
/** The organisation's owner, signed in: a principal other than the organisation key. */
let ownerToken: string;
/** Another organisation and its location, for a machine of theirs. */
let elsewhere: { organizationId: string; locationId: string };
const machines: SignalingMachine[] = [];
const calls: PlacedCall[] = [];

async function passwordToken(email: string, password: string): Promise<string> {
  const auth = createClient(AuthService, cloudTransport(cloud.url));
  return (await auth.authenticate({ entity: email, credentials: { type: "password", payload: password } })).accessToken;
}

beforeAll(async () => {
  cloud = await startInProcessCloud();
  const db = cloud.server.context.store.db;
  const now = cloud.clock.now();
  orgToken = await signIn(cloud.url, cloud.init.api_key.id, cloud.init.api_key.key);
  // Another organisation, with a key of its own.
  const organizationId = await createOrganization(db, { name: "elsewhere", now });
  elsewhere = { organizationId, locationId: await createLocation(db, { organizationId, name: "yard", now }) };
  const strangerKey = await createApiKey(db, { organizationId, name: "stranger", scope: "organization", scopeId: organizationId, now });
  strangerToken = await signIn(cloud.url, strangerKey.id, strangerKey.key);
  // A person who may only look at this organisation's machines.
  const viewer = await createUser(db, { email: "viewer@example.com", passwordHash: hashPassword("viewer password"), now });
  await addMember(db, { organizationId: cloud.init.organization_id, userId: viewer, role: "viewer", now });
  viewerToken = await passwordToken("viewer@example.com", "viewer password");
  ownerToken = await passwordToken("owner@example.com", "correct horse");
});
afterEach(async () => {
  for (const call of calls.splice(0)) call.hangUp();
  for (const machine of machines.splice(0)) machine.drop();
  const relay = cloud.server.context.signaling;
  await eventually(() => (relay.counts().answerers === 0 && relay.counts().calls === 0) || undefined, "the relay to let go");
});
afterAll(() => cloud?.stop());

const isInit = (r: AnswerRequest) => r.stage.case === "init";

async function newPart(name: string, where = { organizationId: cloud.init.organization_id, locationId: cloud.init.location_id }) {
  const made = await createMachine(cloud.server.context.store.db, { ...where, name, editedBy: "test", now: cloud.clock.now() });
  return { ...made, names: await partNames(cloud.url, made.partId, made.partKey) };
}

/** A second part of the machine `machineId`, beside its main part. */
async function siblingPart(machineId: string, name: string) {
  const made = await addPart(cloud.server.context.store.db, { machineId, organizationId: cloud.init.organization_id, name, editedBy: "test", now: cloud.clock.now() });
  return { ...made, names: await partNames(cloud.url, made.partId, made.partKey) };
}

async function answering(partKey: { id: string; key: string }, hosts: string[]): Promise<SignalingMachine> {
  const machine = await answeringMachine(cloud.url, partKey, hosts);
  machines.push(machine);
  await machine.next("the opening heartbeat", (r) => r.stage.case === "heartbeat");
  return machine;
}

function call(token: string, host: string, sdp = "offer"): PlacedCall {
  const placed = placeCall(signalingClient(cloud.url, token), host, sdp);
  calls.push(placed);
  return placed;
}

async function failure(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "ok",
    (thrown: unknown) => ConnectError.from(thrown).message,
  );
}

describe("who may call", () => {
  it("refuses every call made without credentials", async () => {
    const part = await newPart("anonymous-target");
    const anonymous = createClient(SignalingService, cloudTransport(cloud.url));
    const host = { headers: { "rpc-host": part.names.fqdn } };
    expect(await placeCall(anonymous, part.names.fqdn, "offer").ended).toMatch(/^\[unauthenticated\]/);
    expect(await failure(anonymous.callUpdate({ uuid: "x", update: { case: "done", value: true } }, host))).toMatch(/^\[unauthenticated\]/);
    expect(await failure(anonymous.optionalWebRTCConfig({}, host))).toMatch(/^\[unauthenticated\]/);
    // A machine's stream that never ends its side is refused all the same.
    const silent = (async function* () {
      await new Promise(() => {});
    })();
    const answer = anonymous.answer(silent, host);
    expect(await failure((async () => { for await (const _ of answer); })())).toMatch(/^\[unauthenticated\]/);
  });

  it("answers another organisation's key, a viewer, an unknown host and a machine not answering exactly alike", async () => {
    const part = await newPart("guarded");
    const offline = await newPart("offline");
    await answering(part.partKey, [part.names.fqdn, part.names.localFqdn]);
    const notFound = (host: string) => `[not_found] no machine answers for host ${host}`;
    const stranger = await call(strangerToken, part.names.fqdn).ended;
    const viewer = await call(viewerToken, part.names.fqdn).ended;
    const unknown = await call(orgToken, "nobody.main-00000000.localhost").ended;
    const notAnswering = await call(orgToken, offline.names.fqdn).ended;
    expect(stranger).toBe(notFound(part.names.fqdn));
    expect(viewer).toBe(stranger);
    expect(unknown).toBe(notFound("nobody.main-00000000.localhost"));
    expect(notAnswering).toBe(notFound(offline.names.fqdn));
    // The same for the ICE servers.
    const config = (token: string, host: string) => failure(signalingClient(cloud.url, token).optionalWebRTCConfig({}, { headers: { "rpc-host": host } }));
    expect(await config(strangerToken, part.names.fqdn)).toBe(stranger);
    expect(await config(orgToken, offline.names.fqdn)).toBe(notAnswering);
    expect(await config(orgToken, part.names.fqdn)).toBe("ok");
    expect(machines[0]!.requests.some(isInit)).toBe(false);
  });

  it("lets a part key call the other parts of its own machine, and no machine of anyone else", async () => {
    const mine = await newPart("caller");
    const sibling = await siblingPart(mine.machineId, "arm");
    const neighbour = await newPart("neighbour");
    const foreign = await newPart("foreign", elsewhere);
    const answeringSibling = await answering(sibling.partKey, [sibling.names.fqdn, sibling.names.localFqdn]);
    await answering(mine.partKey, [mine.names.fqdn]);
    await answering(neighbour.partKey, [neighbour.names.fqdn]);
    await answering(foreign.partKey, [foreign.names.fqdn]);
    const asPart = signalingClient(cloud.url, await signIn(cloud.url, mine.partKey.id, mine.partKey.key));
    const partCall = (host: string) => {
      const placed = placeCall(asPart, host, `offer to ${host}`);
      calls.push(placed);
      return placed;
    };

    // Its machine's other part, by either name, in any case: the offer reaches it and the answer comes back.
    const placed = partCall(sibling.names.localFqdn.toUpperCase());
    const offer = await answeringSibling.next("the part's offer", isInit);
    expect(offer.stage.value).toMatchObject({ sdp: `offer to ${sibling.names.localFqdn.toUpperCase()}` });
    answeringSibling.send({ uuid: offer.uuid, stage: { case: "init", value: { sdp: "answer" } } });
    answeringSibling.send({ uuid: offer.uuid, stage: { case: "done", value: {} } });
    expect(await placed.ended).toBe("completed");
    const sdp = placed.responses[0]!.stage.value as { sdp: string };
    expect(sdp.sdp).toBe("answer");
    const config = (host: string) => failure(asPart.optionalWebRTCConfig({}, { headers: { "rpc-host": host } }));
    expect(await config(sibling.names.fqdn)).toBe("ok");

    // Another machine of its organisation, another organisation's, a host nobody answers for: one and the same NOT_FOUND.
    const notFound = (host: string) => `[not_found] no machine answers for host ${host}`;
    expect(await partCall(neighbour.names.fqdn).ended).toBe(notFound(neighbour.names.fqdn));
    expect(await partCall(foreign.names.fqdn).ended).toBe(notFound(foreign.names.fqdn));
    expect(await partCall("nobody.main-00000000.localhost").ended).toBe(notFound("nobody.main-00000000.localhost"));
    expect(await config(neighbour.names.fqdn)).toBe(notFound(neighbour.names.fqdn));
    expect(await config(foreign.names.fqdn)).toBe(notFound(foreign.names.fqdn));
    // Its own name: never itself.
    expect(await partCall(mine.names.fqdn).ended).toBe(`[invalid_argument] rpc-host ${mine.names.fqdn} is a name of the calling part itself: a part never calls itself`);
    // No key at all is no part of anything.
    const anonymous = createClient(SignalingService, cloudTransport(cloud.url));
    expect(await placeCall(anonymous, sibling.names.fqdn, "offer").ended).toMatch(/^\[unauthenticated\]/);
    // Only the sibling ever heard an offer.
    const offered = machines.filter((m) => m.requests.some(isInit));
    expect(offered).toHaveLength(1);
    expect(offered[0]).toBe(answeringSibling);
  });

  it("lets no machine answer for another part's names", async () => {
    const mine = await newPart("mine");
    const theirs = await newPart("theirs");
    await answering(theirs.partKey, [theirs.names.fqdn]);
    const taking = await answeringMachine(cloud.url, mine.partKey, [mine.names.fqdn, theirs.names.fqdn]);
    expect(await taking.ended).toBe(`[permission_denied] rpc-host ${theirs.names.fqdn} is not a name of this part (it answers for ${mine.names.fqdn} and ${mine.names.localFqdn})`);
    expect((await cloud.server.context.signaling.answererFor(theirs.names.fqdn))?.partId).toBe(theirs.partId);
    // Nor may an organisation's key hold a machine's line.
    const byKey = await answeringMachine(cloud.url, cloud.init.api_key, [mine.names.fqdn]);
    expect(await byKey.ended).toMatch(/^\[permission_denied\] Answer is a machine's own stream/);
  });

  it("keeps a CallUpdate to the caller that made the call", async () => {
    const part = await newPart("private-call");
    const machine = await answering(part.partKey, [part.names.fqdn]);
    const mine = call(orgToken, part.names.fqdn);
    const offer = await machine.next("the offer", isInit);
    machine.send({ uuid: offer.uuid, stage: { case: "init", value: { sdp: "answer" } } });
    const uuid = await mine.uuid();
    const update = (token: string, id: string, host = part.names.fqdn) =>
      failure(signalingClient(cloud.url, token).callUpdate({ uuid: id, update: { case: "error", value: { code: 2, message: "hijacked" } } }, { headers: { "rpc-host": host } }));
    expect(await update(ownerToken, uuid)).toBe(`[not_found] no call ${uuid} to update`);
    expect(await update(strangerToken, uuid)).toBe(`[not_found] no call ${uuid} to update`);
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect(await update(orgToken, unknown)).toBe(`[not_found] no call ${unknown} to update`);
    // Its own caller, naming another machine, is no different.
    expect(await update(orgToken, uuid, "elsewhere.localhost")).toBe(`[not_found] no call ${uuid} to update`);
    // The call's own caller is heard; what the others sent never reached the machine before it.
    const own = { headers: { "rpc-host": part.names.fqdn } };
    await signalingClient(cloud.url, orgToken).callUpdate({ uuid, update: { case: "candidate", value: { candidate: "candidate:own" } } }, own);
    await machine.next("the caller's own candidate", (r) => r.uuid === uuid && r.stage.case === "update");
    expect(machine.requests.filter((r) => r.uuid === uuid).map((r) => r.stage.case)).toEqual(["init", "update"]);
  });
});

describe("bounds", () => {
  it("refuses an offer longer than 65,536 characters", async () => {
    const part = await newPart("big-offer");
    const machine = await answering(part.partKey, [part.names.fqdn]);
    expect(await call(orgToken, part.names.fqdn, "x".repeat(65_537)).ended).toBe("[invalid_argument] sdp: an offer is at most 65536 characters (this one has 65537)");
    call(orgToken, part.names.fqdn, "y".repeat(65_536));
    const offer = await machine.next("the largest offer taken", isInit);
    expect(offer.stage.value).toMatchObject({ sdp: "y".repeat(65_536) });
  });

  it("holds one principal to 8 calls being set up, while others are still served", async () => {
    const part = await newPart("flooded");
    const machine = await answering(part.partKey, [part.names.fqdn]);
    for (let i = 0; i < RELAY_LIMITS.callsPerCaller; i++) call(orgToken, part.names.fqdn, `offer-${i}`);
    await eventually(() => machine.requests.filter(isInit).length === 8 || undefined, "8 offers at the machine");
    expect(await call(orgToken, part.names.fqdn, "offer-9").ended).toBe("[resource_exhausted] this caller has 8 calls being set up, the most one caller may; wait for one to end");
    const other = call(ownerToken, part.names.fqdn, "someone-else");
    const offer = await machine.next("another caller's offer", (r) => r.stage.case === "init" && r.stage.value.sdp === "someone-else");
    machine.send({ uuid: offer.uuid, stage: { case: "init", value: { sdp: "answer" } } });
    machine.send({ uuid: offer.uuid, stage: { case: "done", value: {} } });
    expect(await other.ended).toBe("completed");
    expect(machine.requests.filter(isInit)).toHaveLength(9);
  });

  it("holds one machine to 16 calls being set up, whoever makes them", async () => {
    const part = await newPart("popular");
    const machine = await answering(part.partKey, [part.names.fqdn]);
    for (let i = 0; i < RELAY_LIMITS.callsPerCaller; i++) call(orgToken, part.names.fqdn, `key-${i}`);
    for (let i = 0; i < RELAY_LIMITS.callsPerCaller; i++) call(ownerToken, part.names.fqdn, `owner-${i}`);
    await eventually(() => machine.requests.filter(isInit).length === 16 || undefined, "16 offers at the machine");
    const db = cloud.server.context.store.db;
    const another = await createApiKey(db, { organizationId: cloud.init.organization_id, name: "another", scope: "organization", scopeId: cloud.init.organization_id, now: cloud.clock.now() });
    const refused = await call(await signIn(cloud.url, another.id, another.key), part.names.fqdn).ended;
    expect(refused).toBe("[resource_exhausted] the machine has 16 calls being set up, the most it takes at once; try again shortly");
  });
});

describe("calls that do not finish", () => {
  it("ends a call UNAVAILABLE when the machine drops mid-call", async () => {
    const part = await newPart("drops");
    const machine = await answering(part.partKey, [part.names.fqdn]);
    const placed = call(orgToken, part.names.fqdn);
    const offer = await machine.next("the offer", isInit);
    machine.send({ uuid: offer.uuid, stage: { case: "init", value: { sdp: "answer" } } });
    await placed.uuid();
    machine.drop();
    expect(await placed.ended).toBe("[unavailable] the machine went offline");
  });

  it("ends a call the machine does not answer within 10 s DEADLINE_EXCEEDED, and tells the machine", async () => {
    const part = await newPart("silent");
    const machine = await answering(part.partKey, [part.names.fqdn]);
    const placed = call(orgToken, part.names.fqdn);
    const offer = await machine.next("the offer", isInit);
    cloud.clock.advance(RELAY_LIMITS.offerDeadlineMs);
    expect(await placed.ended).toBe("[deadline_exceeded] the machine did not answer within 10 s");
    const told = await machine.next("the machine told", (r) => r.uuid === offer.uuid && r.stage.case === "error");
    expect(told.stage.value).toMatchObject({ status: { code: 4 } });
    expect(placed.responses).toEqual([]);
  });

  it("tells the machine CANCELLED when the caller goes away before done", async () => {
    const part = await newPart("abandoned");
    const machine = await answering(part.partKey, [part.names.fqdn]);
    const placed = call(orgToken, part.names.fqdn);
    const offer = await machine.next("the offer", isInit);
    machine.send({ uuid: offer.uuid, stage: { case: "init", value: { sdp: "answer" } } });
    await placed.uuid();
    placed.hangUp();
    const told = await machine.next("the machine told", (r) => r.uuid === offer.uuid && r.stage.case === "error");
    expect(told.stage.value).toMatchObject({ status: { code: 1, message: "the caller went away" } });
  });

  it("tells the machine nothing more once the caller said done and went", async () => {
    const part = await newPart("finished-caller");
    const machine = await answering(part.partKey, [part.names.fqdn]);
    const placed = call(orgToken, part.names.fqdn);
    const offer = await machine.next("the offer", isInit);
    machine.send({ uuid: offer.uuid, stage: { case: "init", value: { sdp: "answer" } } });
    const uuid = await placed.uuid();
    await signalingClient(cloud.url, orgToken).callUpdate({ uuid, update: { case: "done", value: true } }, { headers: { "rpc-host": part.names.fqdn } });
    await machine.next("the caller's done", (r) => r.uuid === uuid && r.stage.case === "done");
    placed.hangUp();
    await eventually(() => cloud.server.context.signaling.counts().calls === 0 || undefined, "the call to end");
    // Whatever the call's end sent the machine comes before the next heartbeat.
    cloud.clock.advance(ANSWER_HEARTBEAT_MS);
    await eventually(() => machine.requests.filter((r) => r.stage.case === "heartbeat").length === 2 || undefined, "the next heartbeat");
    expect(machine.requests.filter((r) => r.uuid === uuid).map((r) => r.stage.case)).toEqual(["init", "done"]);
  });
});
