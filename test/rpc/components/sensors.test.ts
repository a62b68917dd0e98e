// Sensor, movement sensor, power sensor and the generic APIs against their fake models: values
// in the wire's units and shapes, readings as google.protobuf.Value, DoCommand echoing, and
// UNIMPLEMENTED (or an empty list) for geometries.
import { create, fromBinary, toBinary, toJson } from "@bufbuild/protobuf";
import { afterEach, describe, expect, it } from "vitest";
import {
  DoCommandRequestSchema,
  GetGeometriesRequestSchema,
  GetReadingsRequestSchema,
  GetReadingsResponseSchema,
} from "../../../proto/gen/common/v1/common_pb.js";
import * as ms from "../../../proto/gen/component/movementsensor/v1/movementsensor_pb.js";
import * as ps from "../../../proto/gen/component/powersensor/v1/powersensor_pb.js";
import {
  Code,
  createGenericComponentService,
  createGenericServiceService,
  createMovementSensorService,
  createPowerSensorService,
  createSensorService,
} from "../../../core/index.js";
import { createRpcMachine, entry, failure, testCall, type RpcMachine } from "./rpc-machine.js";

let machine: RpcMachine | undefined;
afterEach(async () => {
  await machine?.close();
  machine = undefined;
});

const call = testCall();

describe("SensorService", () => {
  it("sends readings as Values that survive the wire, nested and listed ones included", async () => {
    const readings = { celsius: 21.5, label: "bench", ok: true, none: null, where: { x: 1, tags: ["a", 2] } };
    machine = await createRpcMachine([entry("sensor", "temp", { readings }), entry("sensor", "plain")]);
    const sensor = createSensorService(machine.lookup);
    const answer = await sensor.getReadings(create(GetReadingsRequestSchema, { name: "temp" }), call);
    const wire = fromBinary(GetReadingsResponseSchema, toBinary(GetReadingsResponseSchema, create(GetReadingsResponseSchema, answer)));
    expect(toJson(GetReadingsResponseSchema, wire)).toEqual({ readings });
    const plain = await sensor.getReadings(create(GetReadingsRequestSchema, { name: "plain" }), call);
    expect(toJson(GetReadingsResponseSchema, create(GetReadingsResponseSchema, plain))).toEqual({ readings: { a: 1, b: 2, c: 3 } });
  });

  it("echoes DoCommand, and answers GetGeometries UNIMPLEMENTED naming the sensor", async () => {
    machine = await createRpcMachine([entry("sensor", "temp")]);
    const sensor = createSensorService(machine.lookup);
    const command = { op: "calibrate", at: [1, 2], deep: { on: true } };
    expect(await sensor.doCommand(create(DoCommandRequestSchema, { name: "temp", command }), call)).toEqual({ result: command });
    expect(await sensor.doCommand(create(DoCommandRequestSchema, { name: "temp" }), call)).toEqual({ result: {} });
    expect(await failure(sensor.getGeometries(create(GetGeometriesRequestSchema, { name: "temp" }), call))).toEqual({
      code: Code.Unimplemented,
      message: "rdk:component:sensor/temp does not support GetGeometries (its model describes no geometries)",
    });
    expect(await failure(sensor.getGeometries(create(GetGeometriesRequestSchema, { name: "gone" }), call))).toMatchObject({
      code: Code.NotFound,
    });
  });

  it("answers NOT_FOUND for a sensor that is not configured", async () => {
    machine = await createRpcMachine([]);
    const sensor = createSensorService(machine.lookup);
    expect(await failure(sensor.getReadings(create(GetReadingsRequestSchema, { name: "x" }), call))).toEqual({
      code: Code.NotFound,
      message: 'no rdk:component:sensor named "x"',
    });
  });
});

describe("MovementSensorService", () => {
  it("reports the fake's velocities, heading, orientation, position, acceleration and accuracy", async () => {
    machine = await createRpcMachine([
      entry("movement_sensor", "imu", {
        linear_velocity: { x: 1, y: -2, z: 0.5 },
        angular_velocity: { z: 90 },
        compass_heading: 270,
        accuracy: { position_hdop: 0.5, position_nmea_gga_fix: 4, extra_figure: 7 },
      }),
    ]);
    const imu = createMovementSensorService(machine.lookup);
    const named = { name: "imu" };
    expect(await imu.getLinearVelocity(create(ms.GetLinearVelocityRequestSchema, named), call)).toEqual({ linearVelocity: { x: 1, y: -2, z: 0.5 } });
    expect(await imu.getAngularVelocity(create(ms.GetAngularVelocityRequestSchema, named), call)).toEqual({ angularVelocity: { x: 0, y: 0, z: 90 } });
    expect(await imu.getCompassHeading(create(ms.GetCompassHeadingRequestSchema, named), call)).toEqual({ value: 270 });
    expect(await imu.getOrientation(create(ms.GetOrientationRequestSchema, named), call)).toEqual({ orientation: { oX: 0, oY: 0, oZ: 1, theta: 25 } });
    expect(await imu.getPosition(create(ms.GetPositionRequestSchema, named), call)).toEqual({
      coordinate: { latitude: 40.7, longitude: -73.98 },
      altitudeM: 50.5,
    });
    expect(await imu.getLinearAcceleration(create(ms.GetLinearAccelerationRequestSchema, named), call)).toEqual({ linearAcceleration: { x: 0, y: 0, z: 9.81 } });
    const properties = await imu.getProperties(create(ms.GetPropertiesRequestSchema, named), call);
    expect(Object.values(properties)).toEqual([true, true, true, true, true, true]);
    expect(await imu.getAccuracy(create(ms.GetAccuracyRequestSchema, named), call)).toEqual({
      accuracy: { position_hdop: 0.5, position_nmea_gga_fix: 4, extra_figure: 7 },
      positionHdop: 0.5,
      positionNmeaGgaFix: 4,
    });
    const readings = await imu.getReadings(create(GetReadingsRequestSchema, { name: "imu" }), call);
    expect(toJson(GetReadingsResponseSchema, create(GetReadingsResponseSchema, readings))).toMatchObject({
      readings: { compass: 270, linear_velocity: { x: 1, y: -2, z: 0.5 } },
    });
    expect(await failure(imu.getGeometries(create(GetGeometriesRequestSchema, { name: "imu" }), call))).toMatchObject({
      code: Code.Unimplemented,
    });
  });
});

describe("PowerSensorService", () => {
  it("reports volts, amperes (with AC), watts and readings", async () => {
    machine = await createRpcMachine([entry("power_sensor", "supply", { voltage: 230, current: 2, is_ac: true })]);
    const power = createPowerSensorService(machine.lookup);
    expect(await power.getVoltage(create(ps.GetVoltageRequestSchema, { name: "supply" }), call)).toEqual({ volts: 230, isAc: true });
    expect(await power.getCurrent(create(ps.GetCurrentRequestSchema, { name: "supply" }), call)).toEqual({ amperes: 2, isAc: true });
    expect(await power.getPower(create(ps.GetPowerRequestSchema, { name: "supply" }), call)).toEqual({ watts: 460 });
    const readings = await power.getReadings(create(GetReadingsRequestSchema, { name: "supply" }), call);
    expect(toJson(GetReadingsResponseSchema, create(GetReadingsResponseSchema, readings))).toEqual({
      readings: { voltage: 230, current: 2, is_ac: true, power: 460 },
    });
  });
});

describe("the generic component and service", () => {
  it("echo DoCommand; the component has no geometries, an empty list", async () => {
    machine = await createRpcMachine([entry("generic", "thing")], { services: [entry("generic_service", "helper")] });
    const component = createGenericComponentService(machine.lookup);
    const service = createGenericServiceService(machine.lookup);
    const command = { say: "hi", n: 3 };
    expect(await component.doCommand(create(DoCommandRequestSchema, { name: "thing", command }), call)).toEqual({ result: command });
    expect(await service.doCommand(create(DoCommandRequestSchema, { name: "helper", command }), call)).toEqual({ result: command });
    expect(await component.getGeometries(create(GetGeometriesRequestSchema, { name: "thing" }), call)).toEqual({ geometries: [] });
    // A generic component is not a generic service.
    expect(await failure(service.doCommand(create(DoCommandRequestSchema, { name: "thing", command }), call))).toEqual({
      code: Code.NotFound,
      message: 'no rdk:service:generic named "thing"',
    });
  });
});
