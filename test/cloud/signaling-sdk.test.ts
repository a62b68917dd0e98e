// The official SDK (`@viamrobotics/sdk`) dialing a machine with svc-cloud as its signaling
// address: it signs in to svc-cloud with an organisation's key, asks OptionalWebRTCConfig and
// offers its WebRTC session with Call, all over gRPC-web as it does against Viam's cloud. The
// machine here is a stand-in holding the Answer stream: it sees the SDK's real offer and refuses
// it, and the SDK's dial fails with the machine's own words. (A real machine answering is
// svc-server's test, test/webrtc/.)
import * as VIAM from "@viamrobotics/sdk";
import { RTCIceCandidate, RTCPeerConnection, RTCSessionDescription } from "node-datachannel/polyfill";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createMachine } from "../../targets/cloud/storage/fleet.js";
import { startInProcessCloud, type InProcessCloud } from "../helpers/cloud-in-process.js";
import { answeringMachine, partNames } from "../helpers/cloud-signaling.js";
import { sdkDialCause } from "../helpers/sdk-robot.js";

let cloud: InProcessCloud;
beforeAll(async () => {
  Object.assign(globalThis, { RTCPeerConnection, RTCSessionDescription, RTCIceCandidate });
  // The SDK reports each step of a dial, and its failure, on the console.
  for (const level of ["debug", "info", "log", "warn", "error", "groupCollapsed", "table", "groupEnd"] as const) vi.spyOn(console, level).mockImplementation(() => {});
  cloud = await startInProcessCloud();
});
afterAll(async () => {
  vi.restoreAllMocks();
  await cloud?.stop();
});

describe("the official SDK signaling through svc-cloud", () => {
  it("brings its offer to the machine, and the machine's refusal back as the dial's failure", async () => {
    const made = await createMachine(cloud.server.context.store.db, { locationId: cloud.init.location_id, organizationId: cloud.init.organization_id, name: "sdk-target", editedBy: "test", now: cloud.clock.now() });
    const names = await partNames(cloud.url, made.partId, made.partKey);
    const machine = await answeringMachine(cloud.url, made.partKey, [names.fqdn]);
    try {
      await machine.next("the opening heartbeat", (r) => r.stage.case === "heartbeat");
      const key = cloud.init.api_key;
      const robot = new VIAM.RobotClient();
      const dialing = robot
        .dial({ host: names.fqdn, signalingAddress: cloud.url, credentials: { type: "api-key", payload: key.key, authEntity: key.id }, noReconnect: true, iceServers: [] } as never)
        .then(
          () => "connected",
          (error: unknown) => String(sdkDialCause(error)),
        );
      const offer = await machine.next("the SDK's offer", (r) => r.stage.case === "init");
      const sdp = offer.stage.case === "init" ? offer.stage.value.sdp : "";
      const session = JSON.parse(Buffer.from(sdp, "base64").toString("utf8")) as { type: string; sdp: string };
      expect(session.type).toBe("offer");
      expect(session.sdp).toMatch(/^v=0/);
      machine.send({ uuid: offer.uuid, stage: { case: "error", value: { status: { code: 7, message: "this test machine takes no calls" } } } });
      expect(await dialing).toMatch(/this test machine takes no calls/);
      await robot.disconnect().catch(() => {});
    } finally {
      machine.drop();
    }
  });
});
