// The gripper API on the real svc-server, through the official SDK's GripperClient: the fake
// gripper opens and grabs at once, never reports moving, and holds what it grabbed until it
// opens; Grab's answer and IsHoldingSomething (which the SDK does not surface) are read through
// grpc-js; a kinematics file in its attributes is refused naming the attribute.
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GripperService } from "../../proto/gen/component/gripper/v1/gripper_pb.js";
import { createGrpcJsClient, type GrpcJsClient } from "../helpers/grpc-js-client.js";
import { dialSdk, fullName } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const config = {
  components: [
    { name: "hand", type: "gripper", model: "fake" },
    { name: "filed", type: "gripper", model: "fake", attributes: { "model-path": "/etc/gripper.json" } },
  ],
};

let server: SvcServerProcess;
let robot: VIAM.RobotClient;
let grpc: GrpcJsClient;

beforeAll(async () => {
  server = await startSvcServer(config);
  robot = await dialSdk(server.sdkHost);
  grpc = createGrpcJsClient(server.url);
});

afterAll(async () => {
  grpc?.close();
  await robot?.disconnect();
  await server?.stop();
});

const holding = async (name: string) => (await grpc.call(GripperService.method.isHoldingSomething, { name })).isHoldingSomething;

describe("the gripper API", () => {
  it("has the fake gripper READY, lists the gripper service, and names a refused attribute", async () => {
    const status = await robot.getMachineStatus();
    const byName = new Map(status.resources.map((r) => [fullName(r.name!), r]));
    expect(byName.get("rdk:component:gripper/hand")?.state).toBe(VIAM.robotApi.ResourceStatus_State.READY);
    const filed = byName.get("rdk:component:gripper/filed");
    expect(filed?.state).not.toBe(VIAM.robotApi.ResourceStatus_State.READY);
    expect(filed?.error).toContain("components[1].attributes.model-path: the fake gripper reads no kinematics file");
    const subtypes = await robot.resourceRPCSubtypes();
    expect(subtypes.map((s) => `${s.subtype?.namespace}:${s.subtype?.type}:${s.subtype?.subtype} ${s.protoService}`)).toContain(
      "rdk:component:gripper viam.component.gripper.v1.GripperService",
    );
  });

  it("answers NOT_FOUND for a gripper not configured and UNIMPLEMENTED for geometries and kinematics, naming the gripper", async () => {
    await expect(new VIAM.GripperClient(robot, "nope").open()).rejects.toMatchObject({ code: VIAM.Code.NotFound });
    await expect(new VIAM.GripperClient(robot, "hand").getGeometries()).rejects.toMatchObject({
      code: VIAM.Code.Unimplemented,
      message: expect.stringContaining("rdk:component:gripper/hand does not support GetGeometries"),
    });
    await expect(grpc.call(GripperService.method.getKinematics, { name: "hand" })).rejects.toMatchObject({
      code: 12,
      details: expect.stringContaining("rdk:component:gripper/hand does not support GetKinematics"),
    });
  });
});

describe("the fake gripper", () => {
  it("grabs, reporting a catch, and holds it until it opens", async () => {
    const hand = new VIAM.GripperClient(robot, "hand");
    expect(await holding("hand")).toBe(false);
    await hand.grab();
    expect(await holding("hand")).toBe(true);
    await hand.open();
    expect(await holding("hand")).toBe(false);
    expect((await grpc.call(GripperService.method.grab, { name: "hand" })).success).toBe(true);
    expect(await holding("hand")).toBe(true);
  });

  it("is never moving, stops when told, and echoes DoCommand", async () => {
    const hand = new VIAM.GripperClient(robot, "hand");
    expect(await hand.isMoving()).toBe(false);
    await hand.stop();
    expect(await hand.isMoving()).toBe(false);
    expect(await hand.doCommand(VIAM.Struct.fromJson({ squeeze: 2 }))).toEqual({ squeeze: 2 });
  });
});
