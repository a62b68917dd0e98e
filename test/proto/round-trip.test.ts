// Messages cross between the SDK (protobuf-es v1) and our generated code (v2) unchanged: what
// the SDK encodes, we decode to the same values, and what we encode back is byte-identical.
import { create, fromBinary, toBinary, toJson, type DescMessage } from "@bufbuild/protobuf";
import * as VIAM from "@viamrobotics/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { generated, ourServices } from "./our-protos.js";
import { oneofVariants, sampleSdkMessage } from "./sdk-sample.js";
import { loadSdkServices, sdkMessages, type V1MessageType, type V1Service } from "./sdk-protos.js";

let sdk: Map<string, V1Service>;

beforeAll(async () => {
  sdk = await loadSdkServices();
});

function pairsOf(typeName: string): [DescMessage, V1MessageType][] {
  const ours = ourServices.find((s) => s.typeName === typeName)!;
  const theirs = Object.values(sdk.get(typeName)!.methods);
  return ours.methods.flatMap((m) => {
    const twin = theirs.find((t) => t.name === m.name)!;
    return [
      [m.input, twin.I],
      [m.output, twin.O],
    ] as [DescMessage, V1MessageType][];
  });
}

function expectRoundTrip(schema: DescMessage, sdkType: V1MessageType) {
  for (let variant = 0; variant < oneofVariants(sdkType); variant++) {
    const original = sampleSdkMessage(sdkType, variant);
    const bytes = original.toBinary();
    const decoded = fromBinary(schema, bytes);
    const label = `${schema.typeName} #${variant}`;
    expect(toJson(schema, decoded), label).toEqual(original.toJson());
    const encoded = toBinary(schema, decoded);
    expect(encoded, label).toEqual(bytes);
    expect(sdkType.fromBinary(encoded).toJson(), label).toEqual(original.toJson());
  }
}

const sharedServices = [
  "viam.robot.v1.RobotService",
  "proto.rpc.v1.AuthService",
  "viam.component.sensor.v1.SensorService",
  "viam.component.board.v1.BoardService",
  "viam.component.motor.v1.MotorService",
  "viam.component.servo.v1.ServoService",
  "viam.component.encoder.v1.EncoderService",
  "viam.component.movementsensor.v1.MovementSensorService",
  "viam.component.powersensor.v1.PowerSensorService",
  "viam.component.generic.v1.GenericService",
  "viam.service.generic.v1.GenericService",
  // DataSyncService's upload metadata holds google.protobuf.Any values, which JSON cannot show
  // without a registry of their types: its shape is checked in wire-compat.test.ts only.
  "viam.app.v1.AppService",
];

describe("every request and response, fully populated by the SDK", () => {
  it.each(sharedServices)("%s: decodes to the same values and re-encodes to the same bytes", (typeName) => {
    const pairs = pairsOf(typeName);
    expect(pairs.length).toBeGreaterThan(0);
    for (const [schema, sdkType] of pairs) expectRoundTrip(schema, sdkType);
  });

  it("module configs: a component config with every oneof case, and API subtypes", () => {
    expectRoundTrip(generated.appRobot.ComponentConfigSchema, sdkMessages.componentConfig);
    expectRoundTrip(generated.robot.ResourceRPCSubtypeSchema, sdkMessages.resourceRpcSubtype);
  });
});

describe("main calls, value by value", () => {
  it("sensor readings sent by a server reach the SDK as the same readings", () => {
    const response = create(generated.common.GetReadingsResponseSchema, {
      readings: {
        celsius: { kind: { case: "numberValue", value: 21.5 } },
        status: { kind: { case: "stringValue", value: "ok" } },
      },
    });
    const seen = VIAM.commonApi.GetReadingsResponse.fromBinary(toBinary(generated.common.GetReadingsResponseSchema, response));
    expect(seen.toJson()).toEqual({ readings: { celsius: 21.5, status: "ok" } });
  });

  it("a board PWM request and a motor GoFor request from the SDK arrive intact", () => {
    const pwm = new VIAM.boardApi.SetPWMRequest({ name: "board1", pin: "12", dutyCyclePct: 0.42 });
    expect(fromBinary(generated.board.SetPWMRequestSchema, pwm.toBinary())).toMatchObject({
      name: "board1",
      pin: "12",
      dutyCyclePct: 0.42,
    });
    const goFor = new VIAM.motorApi.GoForRequest({ name: "left", rpm: -60, revolutions: 2.5 });
    expect(fromBinary(generated.motor.GoForRequestSchema, goFor.toBinary())).toMatchObject({
      name: "left",
      rpm: -60,
      revolutions: 2.5,
    });
  });

  it("an encoder position keeps its unit, and a board frequency keeps 64 bits", () => {
    const position = create(generated.encoder.GetPositionResponseSchema, { value: 90.5, positionType: 2 });
    const seen = VIAM.encoderApi.GetPositionResponse.fromBinary(toBinary(generated.encoder.GetPositionResponseSchema, position));
    expect([seen.value, seen.positionType]).toEqual([90.5, VIAM.encoderApi.PositionType.ANGLE_DEGREES]);

    const frequency = create(generated.board.PWMFrequencyResponseSchema, { frequencyHz: 2n ** 60n });
    const sdkFrequency = VIAM.boardApi.PWMFrequencyResponse.fromBinary(
      toBinary(generated.board.PWMFrequencyResponseSchema, frequency),
    );
    expect(sdkFrequency.frequencyHz).toBe(2n ** 60n);
  });

  it("machine status states and the session heartbeat window reach the SDK", () => {
    const status = create(generated.robot.GetMachineStatusResponseSchema, {
      state: generated.robot.GetMachineStatusResponse_State.RUNNING,
      resources: [
        {
          name: { namespace: "rdk", type: "component", subtype: "motor", name: "left" },
          state: generated.robot.ResourceStatus_State.UNHEALTHY,
          error: "stalled",
          revision: "r7",
        },
      ],
      config: { revision: "r7" },
    });
    const seen = VIAM.robotApi.GetMachineStatusResponse.fromBinary(
      toBinary(generated.robot.GetMachineStatusResponseSchema, status),
    );
    expect(seen.toJson()).toEqual({
      state: "STATE_RUNNING",
      resources: [
        {
          name: { namespace: "rdk", type: "component", subtype: "motor", name: "left" },
          state: "STATE_UNHEALTHY",
          error: "stalled",
          revision: "r7",
        },
      ],
      config: { revision: "r7" },
    });

    const session = create(generated.robot.StartSessionResponseSchema, {
      id: "s1",
      heartbeatWindow: { seconds: 2n, nanos: 500_000_000 },
    });
    const sdkSession = VIAM.robotApi.StartSessionResponse.fromBinary(
      toBinary(generated.robot.StartSessionResponseSchema, session),
    );
    expect(sdkSession.toJson()).toEqual({ id: "s1", heartbeatWindow: "2.500s" });
  });
});
