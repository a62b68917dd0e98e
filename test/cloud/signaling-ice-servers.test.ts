// svc-cloud's `--ice-server URL` option: STUN and TURN URLs, a TURN server's `user:password@`
// split into the username and credential WebRTC takes, anything else refused naming the value.
// Through the real svc-cloud process: callers get the servers from OptionalWebRTCConfig, the
// machine gets them with each offer, and a call made by `svc-cloud machine create`'s machine's
// stand-in is relayed end to end.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnswerRequest } from "../../proto/gen/proto/rpc/webrtc/v1/signaling_pb.js";
import { parseIceServer } from "../../targets/cloud/fleet/ice-servers.js";
import { signIn } from "../helpers/cloud-client.js";
import { runCloud, startCloud, type CloudProcess } from "../helpers/cloud-process.js";
import { answeringMachine, partNames, placeCall, signalingClient } from "../helpers/cloud-signaling.js";

describe("an --ice-server value", () => {
  it("is a STUN or TURN URL; a TURN server's credentials are split from it", () => {
    expect(parseIceServer("stun:stun.example.net:3478")).toEqual({ urls: ["stun:stun.example.net:3478"], username: "", credential: "" });
    expect(parseIceServer("turn:alice:s3cret@turn.example.net:3478?transport=tcp")).toEqual({ urls: ["turn:turn.example.net:3478?transport=tcp"], username: "alice", credential: "s3cret" });
    expect(parseIceServer("turns:bob:pa%40ss:word@[2001:db8::1]:5349")).toEqual({ urls: ["turns:[2001:db8::1]:5349"], username: "bob", credential: "pa@ss:word" });
  });

  it("is refused naming what is wrong", () => {
    expect(() => parseIceServer("http://stun.example.net")).toThrow(/--ice-server http:\/\/stun.example.net: expected stun:HOST\[:PORT\] or turn:/);
    expect(() => parseIceServer("stun:alice:pw@stun.example.net")).toThrow(/a STUN server takes no user or password/);
    expect(() => parseIceServer("turn:turn.example.net:99999")).toThrow(/a port of at most 65535/);
    expect(() => parseIceServer("turn:alice@turn.example.net")).toThrow(/USER:PASSWORD@ before the host/);
    expect(() => parseIceServer("stun:stun.example.net?transport=tcp")).toThrow(/only a TURN server takes \?transport=/);
  });
});

describe("svc-cloud --ice-server", () => {
  let cloud: CloudProcess;
  beforeAll(async () => {
    cloud = await startCloud({ args: ["--ice-server", "stun:stun.example.net:3478", "--ice-server", "turn:alice:s3cret@turn.example.net:3478"] });
  });
  afterAll(() => cloud?.stop());

  const servers = [
    { urls: ["stun:stun.example.net:3478"], username: "", credential: "" },
    { urls: ["turn:turn.example.net:3478"], username: "alice", credential: "s3cret" },
  ];

  it("hands the servers to callers and to the machine with each offer, and relays a call end to end", async () => {
    const made = cloud.createMachine("rover");
    const names = await partNames(cloud.url, made.cloud.id, made.cloud.api_key);
    const machine = await answeringMachine(cloud.url, made.cloud.api_key, [names.fqdn, names.localFqdn]);
    try {
      await machine.next("the opening heartbeat", (r) => r.stage.case === "heartbeat");
      const caller = signalingClient(cloud.url, await signIn(cloud.url, cloud.init.api_key.id, cloud.init.api_key.key));
      const { config } = await caller.optionalWebRTCConfig({}, { headers: { "rpc-host": names.fqdn } });
      expect(config).toMatchObject({ additionalIceServers: servers, disableTrickle: false });

      const call = placeCall(caller, names.fqdn, "offer");
      const offer = await machine.next("the offer", (r: AnswerRequest) => r.stage.case === "init");
      expect(offer.stage.value).toMatchObject({ sdp: "offer", optionalConfig: { additionalIceServers: servers } });
      machine.send({ uuid: offer.uuid, stage: { case: "init", value: { sdp: "answer" } } });
      machine.send({ uuid: offer.uuid, stage: { case: "update", value: { candidate: { candidate: "candidate:1" } } } });
      machine.send({ uuid: offer.uuid, stage: { case: "done", value: {} } });
      expect(await call.ended).toBe("completed");
      expect(call.responses.map((r) => [r.uuid, r.stage.case])).toEqual([
        [offer.uuid, "init"],
        [offer.uuid, "update"],
      ]);
    } finally {
      machine.drop();
    }
  });

  it("refuses a value it cannot use before serving, with the usage", () => {
    const refused = runCloud(["--ice-server", "stun:alice:pw@stun.example.net"], cloud.dataDir);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/--ice-server stun:alice:pw@stun.example.net: a STUN server takes no user or password[\s\S]*usage:[\s\S]*--ice-server URL/);
  });
});
