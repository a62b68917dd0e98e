// The official SDK reaching svc-server over WebRTC with the machine's own address as its
// signaling address (no cloud): the SDK's dial of a plain IP address goes through WebRTC, and
// every call then travels the data channel (node-datachannel's polyfill gives Node the browser's
// RTCPeerConnection).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as VIAM from "@viamrobotics/sdk";
import { RTCIceCandidate, RTCPeerConnection, RTCSessionDescription } from "node-datachannel/polyfill";
import { eventually } from "../helpers/eventually.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const config = {
  network: { bind_address: "127.0.0.1:0" },
  components: [
    { name: "temp", api: "rdk:component:sensor", model: "rdk:builtin:fake" },
    { name: "left", api: "rdk:component:motor", model: "rdk:builtin:fake" },
  ],
};

let server: SvcServerProcess;
const clients: VIAM.RobotClient[] = [];

beforeAll(async () => {
  Object.assign(globalThis, { RTCPeerConnection, RTCSessionDescription, RTCIceCandidate });
  // The SDK narrates each step of a dial on the console.
  for (const level of ["debug", "info", "log", "groupCollapsed", "table", "groupEnd"] as const) vi.spyOn(console, level).mockImplementation(() => {});
  server = await startSvcServer(config);
});
afterAll(async () => {
  await Promise.all(clients.splice(0).map((client) => client.disconnect()));
  vi.restoreAllMocks();
  await server?.stop();
});

async function dialWebRtc(host: string, on = server, apiKey?: { id: string; key: string }): Promise<VIAM.RobotClient> {
  const robot = new VIAM.RobotClient();
  clients.push(robot);
  const credentials = apiKey && { type: "api-key" as const, payload: apiKey.key, authEntity: apiKey.id };
  await robot.dial({ host, signalingAddress: on.url, noReconnect: true, iceServers: [], ...(credentials ? { credentials } : {}) } as never);
  return robot;
}

const keyedConfig = (keys: Record<string, string>) => ({
  ...config,
  auth: { handlers: [{ type: "api-key", config: { ...keys, keys: Object.keys(keys) } }] },
});

describe("the SDK over WebRTC with the machine as its own signaling server", () => {
  it("dials 127.0.0.1:PORT (which the SDK will not dial directly) and drives resources", async () => {
    const host = new URL(server.url).host;
    const robot = await dialWebRtc(host);
    const names = (await robot.resourceNames()).map((n) => `${n.subtype}/${n.name}`);
    expect(names).toEqual(expect.arrayContaining(["sensor/temp", "motor/left"]));
    const sensor = new VIAM.SensorClient(robot, "temp");
    const readings = await sensor.getReadings();
    expect(Object.keys(readings).length).toBeGreaterThan(0);
    const motor = new VIAM.MotorClient(robot, "left");
    await motor.setPower(0.5);
    expect((await motor.isMoving())).toBe(true);
    await motor.stop();
    expect(server.stdout()).toContain("WebRTC connection open");
  });

  it("hears the client leave when its data channel closes", async () => {
    const robot = await dialWebRtc(new URL(server.url).host);
    await robot.resourceNames();
    const before = server.stdout().split("WebRTC connection closed").length;
    await robot.disconnect();
    await eventually(() => server.stdout().split("WebRTC connection closed").length > before || undefined, "the server noting the connection closed");
  });

  it("with API keys: the SDK's credentials sign the Call, and hold for the connection while the key stays", async () => {
    const keyed = await startSvcServer(keyedConfig({ k1: "first-key-value" }));
    try {
      const host = new URL(keyed.url).host;
      await expect(dialWebRtc(host, keyed)).rejects.toThrow();
      await expect(dialWebRtc(host, keyed, { id: "k1", key: "wrong-key-value" })).rejects.toThrow();
      const robot = await dialWebRtc(host, keyed, { id: "k1", key: "first-key-value" });
      const sensor = new VIAM.SensorClient(robot, "temp");
      expect(Object.keys(await sensor.getReadings()).length).toBeGreaterThan(0);
      // The key is changed: the connection's calls end, and say why.
      keyed.writeConfig(keyedConfig({ k1: "second-key-value" }));
      const refused = await eventually(async () => {
        try {
          await sensor.getReadings();
          return undefined;
        } catch (error) {
          return error as Error;
        }
      }, "calls refused after the key changed");
      expect(String(refused)).toMatch(/changed or removed; connect again/);
    } finally {
      await keyed.stop();
    }
  });
});
