// What the real svc-server process answers when a call cannot be served, to @grpc/grpc-js over
// HTTP/2: unknown methods and services are status 12 UNIMPLEMENTED (never a bare 404), an unknown
// resource NOT_FOUND, a bad argument INVALID_ARGUMENT, a resource that is not running UNAVAILABLE
// with its error; and the plain HTTP route GET /restart_status answers JSON.
import { EmptySchema } from "@bufbuild/protobuf/wkt";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GetReadingsRequestSchema, GetReadingsResponseSchema } from "../../proto/gen/common/v1/common_pb.js";
import { SensorService } from "../../proto/gen/component/sensor/v1/sensor_pb.js";
import { MotorService } from "../../proto/gen/component/motor/v1/motor_pb.js";
import { RobotService } from "../../proto/gen/robot/v1/robot_pb.js";
import { eventually } from "../helpers/eventually.js";
import { createGrpcJsClient, type GrpcJsClient } from "../helpers/grpc-js-client.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const config = {
  components: [
    { name: "temp", api: "rdk:component:sensor", model: "fake", attributes: {} },
    { name: "wheel", api: "rdk:component:motor", model: "fake", attributes: {} },
    { name: "window", api: "rdk:component:sensor", model: "fake", attributes: { readings: { ok: false } } },
    { name: "stranded", api: "rdk:component:motor", model: "gpio", attributes: { board: "missing-board", pins: { pwm: "12", dir: "16" } } },
  ],
  maintenance: { sensor_name: "rdk:component:sensor/window", maintenance_allowed_key: "ok" },
};

let server: SvcServerProcess;
let client: GrpcJsClient;
beforeAll(async () => {
  server = await startSvcServer(config);
  client = createGrpcJsClient(server.url);
});
afterAll(async () => {
  client?.close();
  await server?.stop();
});

const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e as grpc.ServiceError);

describe("@grpc/grpc-js", () => {
  it("gets status 12 UNIMPLEMENTED for an unknown method of a served service and for an unknown service", async () => {
    const unknownMethod = await failure(
      client.callPath("/viam.component.sensor.v1.SensorService/Calibrate", GetReadingsRequestSchema, GetReadingsResponseSchema, { name: "temp" }),
    );
    expect(unknownMethod).toMatchObject({ code: grpc.status.UNIMPLEMENTED });
    expect(unknownMethod?.code).toBe(12);
    expect(unknownMethod?.details).toContain("Calibrate");

    const unknownService = await failure(client.callPath("/viam.service.shell.v1.ShellService/Shell", EmptySchema, EmptySchema, {}));
    expect(unknownService).toMatchObject({ code: 12 });
    expect(unknownService?.details).toContain("viam.service.shell.v1.ShellService");
  });

  it("gets NOT_FOUND for a resource that is not configured, naming it", async () => {
    const error = await failure(client.call(SensorService.method.getReadings, { name: "nope" }));
    expect(error).toMatchObject({ code: grpc.status.NOT_FOUND, details: 'no rdk:component:sensor named "nope"' });
  });

  it("gets INVALID_ARGUMENT for a bad argument, with what is wrong", async () => {
    const error = await failure(client.call(MotorService.method.goFor, { name: "wheel", rpm: 0, revolutions: 1 }));
    expect(error).toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
    expect(error?.details).toContain("rpm");
  });

  it("gets UNAVAILABLE, with its error, for a configured resource that is not running", async () => {
    const error = await failure(client.call(MotorService.method.isMoving, { name: "stranded" }));
    expect(error).toMatchObject({ code: grpc.status.UNAVAILABLE });
    expect(error?.details).toContain('missing dependency "missing-board"');
  });

  it("gets the version of svc-server", async () => {
    const version = await client.call(RobotService.method.getVersion, {});
    expect(version.platform).toBe("svc-server");
    expect(version.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe("GET /restart_status", () => {
  it("answers JSON: not allowed while the maintenance window says no, and why", async () => {
    const response = await fetch(`${server.url}/restart_status`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ restart_allowed: false, reconfiguring: false, maintenance_allowed: false });
    expect(String(body.reason)).toContain("maintenance window");
  });

  it("answers maintenance allowed, in the same shape, when no maintenance window is configured", async () => {
    const open = await startSvcServer({ components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }] });
    try {
      // Once the first configuration is applied, so that nothing is being reconfigured.
      await eventually(() => (open.stdout().includes("configuration loaded") ? true : undefined), "the configuration");
      const body = await (await fetch(`${open.url}/restart_status`)).json();
      expect(body).toEqual({ restart_allowed: true, reconfiguring: false, maintenance_allowed: true, reason: "", restart_requested: false });
    } finally {
      await open.stop();
    }
  });
});
