// The cloud's device side and svc's own cloud API. The SDK carries no runtime definition of the
// device-side services: the robot API's messages are checked against the SDK's message classes,
// the agent API against the SDK's type declarations, and a few field numbers are pinned as the
// reference protos give them (viamrobotics/api, tag v0.1.512, the API version of the SDK in use).
import { create, fromBinary, fromJson, toBinary, type DescMessage } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { generated } from "./our-protos.js";
import { declaredMethods, expectAsDeclared, requestsAndResponses, sdkDeclarations } from "./sdk-declarations.js";
import { sdkAppRobotMessage } from "./sdk-protos.js";
import { shapeRecord, shapesOfV1, shapesOfV2 } from "./wire-shape.js";

const { appRobot, appAgent, cloud } = generated;

function fieldNumbers(message: DescMessage): Record<string, number> {
  return Object.fromEntries(message.fields.map((f) => [f.name, f.number]));
}

describe("viam.app.v1.RobotService (device side)", () => {
  it("has the SDK's declared calls, all unary", () => {
    const declared = declaredMethods(sdkDeclarations("app/v1/robot_connect.d.ts"), "viam.app.v1.RobotService");
    expect(appRobot.RobotService.methods.map((m) => [m.name, m.methodKind])).toEqual(declared);
    expect(declared.map(([name]) => name)).toEqual(["Config", "Certificate", "Log", "NeedsRestart"]);
  });

  it("has requests and responses shaped like the SDK's message classes, down to every nested type", () => {
    const roots = requestsAndResponses(appRobot.RobotService);
    const theirs = roots.map((m) => {
      const twin = sdkAppRobotMessage(m.name);
      expect(twin, m.typeName).toBeDefined();
      return twin!;
    });
    expect(shapeRecord(shapesOfV2(roots))).toEqual(shapeRecord(shapesOfV1(theirs)));
  });

  it("numbers fields as the reference app/v1/robot.proto does", () => {
    expect(fieldNumbers(appRobot.ConfigRequestSchema)).toEqual({ id: 1, agent_info: 2 });
    expect(fieldNumbers(appRobot.LogRequestSchema)).toEqual({ id: 1, logs: 2 });
    const needsRestart = fieldNumbers(appRobot.NeedsRestartResponseSchema);
    expect(needsRestart).toEqual({ id: 1, must_restart: 2, restart_check_interval: 3 });
    expect(fieldNumbers(appRobot.RobotConfigSchema)).toMatchObject({
      cloud: 1,
      components: 3,
      modules: 9,
      log: 14,
      revision: 15,
      maintenance: 16,
      tracing: 19,
    });
    expect(fieldNumbers(appRobot.CloudConfigSchema)).toMatchObject({
      id: 1,
      secret: 8,
      primary_org_id: 10,
      location_id: 11,
      machine_id: 12,
    });
    expect(fieldNumbers(appRobot.ServiceConfigSchema)).toMatchObject({ model: 6, api: 9, service_configs: 10 });
  });

  it("reads a machine's JSON config into a RobotConfig, ignoring keys it has no field for", () => {
    const json = {
      components: [
        { name: "left", api: "rdk:component:motor", model: "rdk:builtin:gpio", attributes: { pins: { pwm: "12" } } },
      ],
      services: [{ name: "dm", api: "rdk:service:data_manager", model: "rdk:builtin:builtin" }],
      modules: [{ type: "local", name: "mod", executable_path: "/opt/mod", env: { A: "1" } }],
      processes: [{ id: "p", name: "echo", args: ["hi"], one_shot: true, stop_timeout: "5s" }],
      log: [{ pattern: "rdk.components.*", level: "debug" }],
      network: { bind_address: "0.0.0.0:8080" },
      agent: { version_control: { agent: "stable" } },
      revision: "r3",
    };
    const config = fromJson(appRobot.RobotConfigSchema, json, { ignoreUnknownFields: true });
    expect(config.components[0]).toMatchObject({ name: "left", api: "rdk:component:motor" });
    expect(config.components[0]?.attributes).toEqual({ pins: { pwm: "12" } });
    expect(config.services[0]?.api).toBe("rdk:service:data_manager");
    expect(config.modules[0]).toMatchObject({ type: "local", name: "mod", env: { A: "1" } });
    expect(config.processes[0]).toMatchObject({ id: "p", args: ["hi"], oneShot: true, stopTimeout: { seconds: 5n } });
    expect(config.log).toMatchObject([{ pattern: "rdk.components.*", level: "debug" }]);
    expect(config.network?.bindAddress).toBe("0.0.0.0:8080");
    expect(config.revision).toBe("r3");
  });
});

describe("viam.app.agent.v1.AgentDeviceService", () => {
  it("has the SDK's declared call", () => {
    const service = appAgent.AgentDeviceService;
    const declared = declaredMethods(sdkDeclarations("app/agent/v1/agent_connect.d.ts"), service.typeName);
    expect(service.methods.map((m) => [m.name, m.methodKind])).toEqual(declared);
    expect(declared).toEqual([["DeviceAgentConfig", "unary"]]);
  });

  it("has the SDK's declared messages, down to every nested type", () => {
    expectAsDeclared(requestsAndResponses(appAgent.AgentDeviceService), ["app/agent/v1/agent_pb.d.ts"]);
  });

  it("numbers fields as the reference app/agent/v1/agent.proto does", () => {
    expect(fieldNumbers(appAgent.DeviceAgentConfigRequestSchema)).toEqual({
      id: 1,
      host_info: 2,
      subsystem_versions: 3,
      version_info: 4,
    });
    expect(fieldNumbers(appAgent.DeviceAgentConfigResponseSchema)).toMatchObject({
      check_interval: 2,
      agent_update_info: 3,
      viam_server_update_info: 4,
      advanced_settings: 5,
    });
    expect(fieldNumbers(appAgent.UpdateInfoSchema)).toEqual({ filename: 1, url: 2, version: 3, sha256: 4, format: 5 });
    expect(fieldNumbers(appAgent.VersionInfoSchema)).toEqual({
      agent_running: 1,
      agent_installed: 2,
      viam_server_running: 3,
      viam_server_installed: 4,
    });
  });
});

describe("svc.cloud.v1.CloudService", () => {
  it("pushes revision notices to a machine, streams uploaded files back and answers everything else once", () => {
    const calls = cloud.CloudService.methods.map((m) => [m.name, m.methodKind]);
    expect(calls).toEqual([
      ["WatchRevisions", "server_streaming"],
      ["MachineConfig", "unary"],
      ["ListFiles", "unary"],
      ["DownloadFile", "server_streaming"],
      ...[
        "ReportConfigStatus",
        "RestoreRobotPartRevision",
        "AddUser",
        "SetRole",
        "ListUsers",
        "CreateInvitation",
        "AcceptInvitation",
        "ListReleases",
        "SetChannel",
        "CreatePartCredentials",
        "ListFragmentUsers",
        "GetLogVolume",
        "GetLocationVersions",
        "SetLocationVersions",
        "GetPartStatus",
      ].map((name) => [name, "unary"]),
    ]);
  });

  it("answers a restore with the part as the app API shapes it", () => {
    const part = { id: "p1", robotConfig: { components: [] } };
    const response = create(cloud.RestoreRobotPartRevisionResponseSchema, { part });
    const bytes = toBinary(cloud.RestoreRobotPartRevisionResponseSchema, response);
    expect(fromBinary(generated.app.UpdateRobotPartResponseSchema, bytes).part?.id).toBe("p1");
  });
});
