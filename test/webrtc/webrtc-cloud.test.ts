// A machine behind svc-cloud reached over WebRTC: svc-server managed by the real svc-cloud holds
// SignalingService.Answer open to it, and the official SDK dials the machine's fqdn with svc-cloud
// as its signaling address and a key of the machine's organisation, then drives a resource over
// the data channel; a host no machine answers for is NOT_FOUND (who may call which machine is
// svc-cloud's signaling tests' business).
import * as VIAM from "@viamrobotics/sdk";
import { RTCIceCandidate, RTCPeerConnection, RTCSessionDescription } from "node-datachannel/polyfill";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { cloudManagedMachine, type CloudManaged } from "../helpers/cloud-managed.js";
import { startCloud, type CloudProcess } from "../helpers/cloud-process.js";
import { partNames } from "../helpers/cloud-signaling.js";
import { eventually } from "../helpers/eventually.js";
import { sdkDialCause } from "../helpers/sdk-robot.js";
import type { SvcServerProcess } from "../helpers/svc-server-process.js";

let cloud: CloudProcess;
let machine: CloudManaged;
let server: SvcServerProcess;
let fqdn: string;
const robots: VIAM.RobotClient[] = [];

beforeAll(async () => {
  Object.assign(globalThis, { RTCPeerConnection, RTCSessionDescription, RTCIceCandidate });
  for (const level of ["debug", "info", "log", "groupCollapsed", "table", "groupEnd"] as const) vi.spyOn(console, level).mockImplementation(() => {});
  cloud = await startCloud();
  machine = await cloudManagedMachine(cloud, "rover");
  await machine.edit({ components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }] });
  server = await machine.start();
  ({ fqdn } = await partNames(cloud.url, machine.partId, machine.credentials.cloud.api_key));
}, 120_000);
afterAll(async () => {
  for (const robot of robots.splice(0)) await robot.disconnect();
  vi.restoreAllMocks();
  await server?.stop();
  machine?.remove();
  await cloud?.stop();
});

async function dialThroughCloud(key: { id: string; key: string }, host = fqdn): Promise<VIAM.RobotClient> {
  const robot = new VIAM.RobotClient();
  robots.push(robot);
  const credentials = { type: "api-key" as const, payload: key.key, authEntity: key.id };
  await robot.dial({ host, signalingAddress: cloud.url, credentials, noReconnect: true, iceServers: [] } as never);
  return robot;
}

describe("WebRTC through svc-cloud", () => {
  it("reaches the machine by its fqdn with a key of its organisation, and drives its sensor", async () => {
    // The machine opens its Answer stream once svc-cloud has named it, and runs the sensor once
    // it has its config.
    const readings = await eventually(async () => {
      const robot = await dialThroughCloud(cloud.init.api_key).catch(() => undefined);
      return robot && new VIAM.SensorClient(robot, "temp").getReadings().catch(() => undefined);
    }, "the sensor's readings over WebRTC through svc-cloud");
    expect(Object.keys(readings).length).toBeGreaterThan(0);
    expect(server.stdout()).toContain("WebRTC connection open");
  });

  it("answers a host no machine answers for with NOT_FOUND", async () => {
    const foreign = await dialThroughCloud(cloud.init.api_key, "no-such-machine.example.com").then(
      () => "connected",
      (error: unknown) => String(sdkDialCause(error)),
    );
    expect(foreign).toMatch(/no machine answers for host/);
  });
});
