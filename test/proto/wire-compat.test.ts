// Our .proto files against the official SDK: every service svc declares must look, on the wire
// and in JSON, exactly like the SDK's service of the same name.
import { getOption, type DescMessage, type DescService } from "@bufbuild/protobuf";
import { beforeAll, describe, expect, it } from "vitest";
import { generated, ourServices } from "./our-protos.js";
import { declaredMethods, expectAsDeclared, requestsAndResponses, sdkDeclarations } from "./sdk-declarations.js";
import { loadSdkServices, sdkMessages, v1MethodKinds, type V1Method, type V1Service } from "./sdk-protos.js";
import { shapeRecord, shapesOfV1, shapesOfV2 } from "./wire-shape.js";

const robotCalls = [
  "GetOperations",
  "ResourceNames",
  "ResourceRPCSubtypes",
  "CancelOperation",
  "BlockForOperation",
  "StopAll",
  "StartSession",
  "SendSessionHeartbeat",
  "GetCloudMetadata",
  "Shutdown",
  "GetMachineStatus",
  "GetVersion",
  "FrameSystemConfig",
  "TransformPose",
];

// The cloud's user side: the AppService calls svc-cloud answers.
const appCalls = [
  "ListOrganizations",
  "GetOrganization",
  "ListOrganizationMembers",
  "CreateOrganizationInvite",
  "CreateLocation",
  "GetLocation",
  "ListLocations",
  "GetRobot",
  "GetRobotParts",
  "GetRobotPart",
  "GetRobotPartLogs",
  "TailRobotPartLogs",
  "GetRobotPartHistory",
  "UpdateRobotPart",
  "NewRobotPart",
  "DeleteRobotPart",
  "GetRobotAPIKeys",
  "MarkPartForRestart",
  "ListRobots",
  "NewRobot",
  "UpdateRobot",
  "DeleteRobot",
  "ListFragments",
  "GetFragment",
  "CreateFragment",
  "UpdateFragment",
  "DeleteFragment",
  "ListMachineSummaries",
  "CreateKey",
  "DeleteKey",
  "ListKeys",
];

// Services svc declares only some calls of: each declared call must be the SDK's, the rest are left out.
const declaredInPart: Record<string, string[]> = {
  "viam.robot.v1.RobotService": robotCalls,
  "viam.app.v1.AppService": appCalls,
  "viam.app.datasync.v1.DataSyncService": ["FileUpload"],
};

// Calls of the SDK's services svc does not declare: RenderFrame answers a google.api.HttpBody,
// a type of the HTTP annotations the sources leave out (GetImage and GetImages serve images).
const notDeclared: Record<string, string[]> = { "viam.component.camera.v1.CameraService": ["RenderFrame"] };

// The SDK ships no runtime definition of these; they are checked another way below (svc's own
// CloudService has no counterpart at all).
const notInSdkRuntime = [
  "proto.rpc.v1.ExternalAuthService",
  "viam.module.v1.ModuleService",
  "viam.app.v1.RobotService",
  "viam.app.agent.v1.AgentDeviceService",
  "svc.cloud.v1.CloudService",
];

const sharedWithSdk = ourServices.filter((s) => !notInSdkRuntime.includes(s.typeName));

function sdkMethod(service: V1Service, name: string): V1Method | undefined {
  return Object.values(service.methods).find((m) => m.name === name);
}

let sdk: Map<string, V1Service>;

beforeAll(async () => {
  sdk = await loadSdkServices();
});

describe("the services svc declares", () => {
  it("are the machine, auth, module, component, generic service and cloud APIs", () => {
    expect(ourServices.map((s) => s.typeName).sort()).toEqual([
      "proto.rpc.v1.AuthService",
      "proto.rpc.v1.ExternalAuthService",
      "svc.cloud.v1.CloudService",
      "viam.app.agent.v1.AgentDeviceService",
      "viam.app.datasync.v1.DataSyncService",
      "viam.app.v1.AppService",
      "viam.app.v1.RobotService",
      "viam.component.arm.v1.ArmService",
      "viam.component.audioin.v1.AudioInService",
      "viam.component.audioout.v1.AudioOutService",
      "viam.component.base.v1.BaseService",
      "viam.component.board.v1.BoardService",
      "viam.component.camera.v1.CameraService",
      "viam.component.encoder.v1.EncoderService",
      "viam.component.gantry.v1.GantryService",
      "viam.component.generic.v1.GenericService",
      "viam.component.gripper.v1.GripperService",
      "viam.component.inputcontroller.v1.InputControllerService",
      "viam.component.motor.v1.MotorService",
      "viam.component.movementsensor.v1.MovementSensorService",
      "viam.component.powersensor.v1.PowerSensorService",
      "viam.component.sensor.v1.SensorService",
      "viam.component.servo.v1.ServoService",
      "viam.module.v1.ModuleService",
      "viam.robot.v1.RobotService",
      "viam.service.datamanager.v1.DataManagerService",
      "viam.service.generic.v1.GenericService",
      "viam.service.motion.v1.MotionService",
      "viam.service.navigation.v1.NavigationService",
      "viam.service.slam.v1.SLAMService",
      "viam.service.vision.v1.VisionService",
    ]);
  });

  it("each have a twin in the SDK, except those it ships no runtime definition for", () => {
    for (const service of sharedWithSdk) expect(sdk.has(service.typeName), service.typeName).toBe(true);
  });

  it("leave out the calls svc does not answer", () => {
    expect(generated.robot.RobotService.methods.map((m) => m.name)).toEqual(robotCalls);
    expect(generated.app.AppService.methods.map((m) => m.name)).toEqual(appCalls);
    expect(generated.appDataSync.DataSyncService.methods.map((m) => m.name)).toEqual(["FileUpload"]);
  });
});

describe.each(sharedWithSdk.map((s): [string, DescService] => [s.typeName, s]))("%s", (typeName, ours) => {
  it("has the SDK's methods, with the same streaming kinds and message types", () => {
    const theirs = sdk.get(typeName)!;
    const names = ours.methods.map((m) => m.name);
    if (declaredInPart[typeName]) {
      for (const name of names) expect(sdkMethod(theirs, name), name).toBeDefined();
    } else {
      const left = notDeclared[typeName] ?? [];
      expect(names).toEqual(Object.values(theirs.methods).map((m) => m.name).filter((name) => !left.includes(name)));
    }
    for (const method of ours.methods) {
      const twin = sdkMethod(theirs, method.name)!;
      expect([method.methodKind, method.input.typeName, method.output.typeName], method.name).toEqual([
        v1MethodKinds[twin.kind],
        twin.I.typeName,
        twin.O.typeName,
      ]);
    }
  });

  it("has requests and responses with the SDK's fields, down to every nested type", () => {
    const theirs = sdk.get(typeName)!;
    const roots = ours.methods.flatMap((m) => [m.input, m.output]);
    const twinRoots = ours.methods.flatMap((m) => {
      const twin = sdkMethod(theirs, m.name)!;
      return [twin.I, twin.O];
    });
    expect(shapeRecord(shapesOfV2(roots))).toEqual(shapeRecord(shapesOfV1(twinRoots)));
  });
});

describe("viam.module.v1.ModuleService", () => {
  it("has the module calls, all unary", () => {
    const calls = generated.module.ModuleService.methods.map((m) => [m.name, m.methodKind]);
    expect(calls).toEqual(
      ["AddResource", "ReconfigureResource", "RemoveResource", "Ready", "ValidateConfig"].map((n) => [n, "unary"]),
    );
  });

  it("carries resource configs and API subtypes shaped like the SDK's", () => {
    const pairs: [DescMessage, typeof sdkMessages.componentConfig][] = [
      [generated.appRobot.ComponentConfigSchema, sdkMessages.componentConfig],
      [generated.robot.ResourceRPCSubtypeSchema, sdkMessages.resourceRpcSubtype],
    ];
    for (const [ours, theirs] of pairs) {
      expect(shapeRecord(shapesOfV2([ours]))).toEqual(shapeRecord(shapesOfV1([theirs])));
    }
  });
});

// The SDK declares ExternalAuthService only in its type declarations (generated from the same
// protos): read the field lines there.
describe("proto.rpc.v1.ExternalAuthService", () => {
  it("matches the SDK's declared service and messages", () => {
    const service = generated.auth.ExternalAuthService;
    const methods = declaredMethods(sdkDeclarations("proto/rpc/v1/auth_connect.d.ts"), service.typeName);
    expect(service.methods.map((m) => [m.name, m.methodKind])).toEqual(methods);
    expect(methods).toEqual([["AuthenticateTo", "unary"]]);
    expectAsDeclared(requestsAndResponses(service), ["proto/rpc/v1/auth_pb.d.ts"]);
  });
});

describe("session safety", () => {
  it("marks the actuator calls the SDK treats as heartbeat monitored", () => {
    const marked = ourServices.flatMap((s) =>
      s.methods
        .filter((m) => getOption(m, generated.common.safety_heartbeat_monitored))
        .map((m) => `/${s.typeName}/${m.name}`),
    );
    // The SDK's own fallback list (used when reflection is unavailable), for the services we declare.
    expect(marked.sort()).toEqual([
      "/viam.component.arm.v1.ArmService/MoveThroughJointPositions",
      "/viam.component.arm.v1.ArmService/MoveToJointPositions",
      "/viam.component.arm.v1.ArmService/MoveToPosition",
      "/viam.component.base.v1.BaseService/MoveStraight",
      "/viam.component.base.v1.BaseService/SetPower",
      "/viam.component.base.v1.BaseService/SetVelocity",
      "/viam.component.base.v1.BaseService/Spin",
      "/viam.component.gantry.v1.GantryService/MoveToPosition",
      "/viam.component.gripper.v1.GripperService/Grab",
      "/viam.component.gripper.v1.GripperService/Open",
      "/viam.component.motor.v1.MotorService/GoFor",
      "/viam.component.motor.v1.MotorService/GoTo",
      "/viam.component.motor.v1.MotorService/SetPower",
      "/viam.component.motor.v1.MotorService/SetRPM",
      "/viam.component.servo.v1.ServoService/Move",
    ]);
  });
});
