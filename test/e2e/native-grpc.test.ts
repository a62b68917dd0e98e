// Native gRPC over HTTP/2 against the real svc-server process, from two clients: the official SDK
// switched to HTTP/2 through its GRPC_TRANSPORT_FACTORY hook, and @grpc/grpc-js with our generated
// messages. Each lists the resources, reads a sensor and runs a motor.
import { toJson, type JsonValue } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SensorService } from "../../proto/gen/component/sensor/v1/sensor_pb.js";
import { MotorService } from "../../proto/gen/component/motor/v1/motor_pb.js";
import { RobotService } from "../../proto/gen/robot/v1/robot_pb.js";
import { createGrpcJsClient } from "../helpers/grpc-js-client.js";
import { createSdkGrpcTransports } from "../helpers/sdk-grpc-transport.js";
import { dialSdk, fullName } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const readings = { celsius: 19.25, room: "workshop" };
const config = {
  components: [
    { name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings } },
    { name: "drive", api: "rdk:component:motor", model: "fake", attributes: { max_rpm: 100 } },
  ],
};
const expectedNames = ["rdk:component:motor/drive", "rdk:component:sensor/temp"];

let server: SvcServerProcess;
beforeAll(async () => {
  server = await startSvcServer(config);
});
afterAll(() => server?.stop());

describe("the official SDK through GRPC_TRANSPORT_FACTORY", () => {
  it("lists the resources, reads the sensor and runs the motor, every call over HTTP/2", async () => {
    const transports = createSdkGrpcTransports();
    const before = globalThis.VIAM;
    globalThis.VIAM = { GRPC_TRANSPORT_FACTORY: transports.factory };
    let robot: VIAM.RobotClient | undefined;
    try {
      robot = await dialSdk(server.sdkHost);
      expect((await robot.resourceNames()).map(fullName).sort()).toEqual(expectedNames);
      expect(await new VIAM.SensorClient(robot, "temp").getReadings()).toEqual(readings);

      const motor = new VIAM.MotorClient(robot, "drive");
      await motor.setPower(0.5);
      expect(await motor.isMoving()).toBe(true);
      expect(await motor.isPowered()).toEqual([true, 0.5]);
      await motor.stop();
      expect(await motor.isMoving()).toBe(false);

      expect(transports.calls).toEqual(
        expect.arrayContaining([
          "/viam.robot.v1.RobotService/ResourceNames",
          "/viam.component.sensor.v1.SensorService/GetReadings",
          "/viam.component.motor.v1.MotorService/SetPower",
          "/viam.component.motor.v1.MotorService/IsMoving",
          "/viam.component.motor.v1.MotorService/Stop",
        ]),
      );
    } finally {
      await robot?.disconnect();
      transports.close();
      globalThis.VIAM = before;
    }
  });
});

describe("@grpc/grpc-js", () => {
  it("lists the resources, reads the sensor and runs the motor", async () => {
    const client = createGrpcJsClient(server.url);
    try {
      const { resources } = await client.call(RobotService.method.resourceNames, {});
      expect(resources.map(fullName).sort()).toEqual(expectedNames);

      const response = await client.call(SensorService.method.getReadings, { name: "temp" });
      const read: Record<string, JsonValue> = {};
      for (const [key, value] of Object.entries(response.readings)) read[key] = toJson(ValueSchema, value);
      expect(read).toEqual(readings);

      const before = (await client.call(MotorService.method.getPosition, { name: "drive" })).position;
      await client.call(MotorService.method.setPower, { name: "drive", powerPct: -0.25 });
      expect(await client.call(MotorService.method.isMoving, { name: "drive" })).toMatchObject({ isMoving: true });
      expect(await client.call(MotorService.method.isPowered, { name: "drive" })).toMatchObject({ isOn: true, powerPct: -0.25 });
      await client.call(MotorService.method.stop, { name: "drive" });
      expect(await client.call(MotorService.method.isMoving, { name: "drive" })).toMatchObject({ isMoving: false });
      // It turned backwards, and stopping keeps the position it reached.
      const { position } = await client.call(MotorService.method.getPosition, { name: "drive" });
      expect(position).toBeLessThan(before);
      expect((await client.call(MotorService.method.getPosition, { name: "drive" })).position).toBe(position);
    } finally {
      client.close();
    }
  });
});
