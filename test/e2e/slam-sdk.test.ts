// The SLAM service on the real svc-server, through the official SDK's SlamClient: the fake's map
// is a PCD point cloud of a room's walls that grows a step each time it is asked for, its
// position goes round the room with it, its internal state says which step it is at, and its
// properties say it maps locally, creating a new map. Over connect-node's own gRPC client the map
// arrives in chunks of at most 1 MiB, as Viam sends it, which together are the whole file.
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SLAMService } from "../../proto/gen/service/slam/v1/slam_pb.js";
import { dialSdk, fullName } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const SLAM = "rdk:service:slam";
const MiB = 1024 * 1024;

interface Pcd {
  header: Record<string, string>;
  points: Array<{ x: number; y: number; z: number; rgb: number }>;
}

// A reader for what Viam's services expect: the header's lines, then binary x y z rgb points.
function readPcd(bytes: Uint8Array): Pcd {
  const text = Buffer.from(bytes).toString("latin1");
  const end = text.indexOf("DATA binary\n") + "DATA binary\n".length;
  expect(end, "a binary PCD").toBeGreaterThan("DATA binary\n".length);
  const header = Object.fromEntries(
    text
      .slice(0, end)
      .trim()
      .split("\n")
      .map((line) => [line.slice(0, line.indexOf(" ")), line.slice(line.indexOf(" ") + 1)]),
  );
  const count = Number(header.POINTS);
  expect(bytes.length).toBe(end + count * 16);
  const view = new DataView(bytes.buffer, bytes.byteOffset + end);
  const points = Array.from({ length: count }, (_, i) => ({
    x: view.getFloat32(i * 16, true),
    y: view.getFloat32(i * 16 + 4, true),
    z: view.getFloat32(i * 16 + 8, true),
    rgb: view.getUint32(i * 16 + 12, true),
  }));
  return { header, points };
}

const onAWall = (p: { x: number; y: number }) => Math.abs(Math.abs(p.x) - 4) < 1e-5 || Math.abs(Math.abs(p.y) - 2.5) < 1e-5;

describe("a SLAM service through the official SDK", () => {
  let server: SvcServerProcess;
  let robot: VIAM.RobotClient;
  const slam = (name = "slam") => new VIAM.SlamClient(robot, name);

  beforeAll(async () => {
    server = await startSvcServer({
      services: [
        { name: "slam", api: SLAM, model: "fake" },
        { name: "big", api: SLAM, model: "fake", attributes: { map_points: 960_000 } },
      ],
    });
    robot = await dialSdk(server.sdkHost);
  });

  afterAll(async () => {
    await robot?.disconnect();
    await server?.stop();
  });

  it("is READY and listed in ResourceRPCSubtypes with its service", async () => {
    const status = await robot.getMachineStatus();
    const states = Object.fromEntries(status.resources.map((r) => [fullName(r.name!), VIAM.robotApi.ResourceStatus_State[r.state]]));
    expect(states).toMatchObject({ [`${SLAM}/slam`]: "READY", [`${SLAM}/big`]: "READY" });
    const subtypes = await robot.resourceRPCSubtypes();
    expect(subtypes.map((s) => `${s.subtype?.namespace}:${s.subtype?.type}:${s.subtype?.subtype} ${s.protoService}`)).toContain(
      `${SLAM} viam.service.slam.v1.SLAMService`,
    );
  });

  it("says it maps locally, creating a new map, with its internal state as JSON", async () => {
    const properties = await slam().getProperties();
    expect(properties.cloudSlam).toBe(false);
    expect(properties.mappingMode).toBe(VIAM.slamApi.MappingMode.CREATE_NEW_MAP);
    expect(properties.internalStateFileType).toBe(".json");
    expect(properties.sensorInfo).toEqual([]);
  });

  it("is at the first step of its lap before any map is asked for", async () => {
    const { pose } = await slam().getPosition();
    expect(pose?.toJson()).toEqual({ x: 2500, oZ: 1, theta: 90 });
  });

  it("gives a map of the walls that grows a step each time, and goes round with it", async () => {
    const first = readPcd(await slam().getPointCloudMap());
    expect(first.header).toMatchObject({
      VERSION: ".7",
      FIELDS: "x y z rgb",
      SIZE: "4 4 4 4",
      TYPE: "F F F I",
      COUNT: "1 1 1 1",
      WIDTH: "100",
      HEIGHT: "1",
      POINTS: "100",
    });
    expect(first.points.every(onAWall)).toBe(true);
    expect(first.points.every((p) => p.z === 0 && p.rgb === 100)).toBe(true);
    // The walk starts at the middle of the right wall, going up it.
    expect(first.points[0]!.x).toBeCloseTo(4, 5);
    expect(first.points[0]!.y).toBeCloseTo(26 / 2400 / 2, 5);
    expect((await slam().getPosition()).pose?.x).toBeCloseTo(2500, 6);

    const second = readPcd(await slam().getPointCloudMap());
    expect(second.points).toHaveLength(200);
    expect(second.points.slice(0, 100)).toEqual(first.points);
    const { pose } = await slam().getPosition();
    expect(pose?.x).toBeCloseTo(2500 * Math.cos(Math.PI / 12), 6);
    expect(pose?.y).toBeCloseTo(1250 * Math.sin(Math.PI / 12), 6);
  });

  it("gives its internal state: the step reached and the way it came", async () => {
    const state = JSON.parse(Buffer.from(await slam().getInternalState()).toString("utf8"));
    expect(state).toMatchObject({ format: "svc fake slam", step: 1, map_points: 2400 });
    expect(state.trajectory_mm_deg).toHaveLength(2);
    expect(state.trajectory_mm_deg[0]).toEqual([2500, 0, 90]);
  });

  it("streams a large map in chunks of at most 1 MiB that make up the whole file", async () => {
    const client = createClient(SLAMService, createGrpcTransport({ baseUrl: server.url }));
    const chunksOf = async (): Promise<Uint8Array[]> => {
      const chunks: Uint8Array[] = [];
      for await (const answer of client.getPointCloudMap({ name: "big" })) chunks.push(answer.pointCloudPcdChunk);
      return chunks;
    };
    // Step 1 holds 40,000 points (640 KB): one chunk. Step 2 holds 80,000 (1.28 MB): two.
    const one = await chunksOf();
    expect(one).toHaveLength(1);
    expect(readPcd(one[0]!).points).toHaveLength(40_000);
    const two = await chunksOf();
    expect(two).toHaveLength(2);
    expect(two[0]!.length).toBe(MiB);
    const whole = Buffer.concat(two);
    const map = readPcd(whole);
    expect(map.points).toHaveLength(80_000);
    expect(map.points.every(onAWall)).toBe(true);
    // The SDK puts the chunks together itself: the next step's map, whole.
    const third = readPcd(await slam("big").getPointCloudMap());
    expect(third.points).toHaveLength(120_000);
    expect(third.points.slice(0, 80_000)).toEqual(map.points);
  });

  it("answers NOT_FOUND for a service not configured, on a stream too, and echoes DoCommand", async () => {
    await expect(slam("ghost").getPosition()).rejects.toMatchObject({ code: 5 });
    await expect(slam("ghost").getPointCloudMap()).rejects.toMatchObject({ code: 5, message: expect.stringContaining('no rdk:service:slam named "ghost"') });
    expect(await slam().doCommand(VIAM.Struct.fromJson({ map: "please" }))).toEqual({ map: "please" });
  });
});
