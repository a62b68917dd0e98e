// MotorService, ServoService and EncoderService against the fake motor driving a fake encoder
// and the fake servo, on a manual clock: motions that finish when their time has passed, the
// call told which actuator it drove, cancellation that stops the motion, and argument checks.
import { create } from "@bufbuild/protobuf";
import { afterEach, describe, expect, it } from "vitest";
import { GetGeometriesRequestSchema } from "../../../proto/gen/common/v1/common_pb.js";
import * as enc from "../../../proto/gen/component/encoder/v1/encoder_pb.js";
import * as mo from "../../../proto/gen/component/motor/v1/motor_pb.js";
import * as sv from "../../../proto/gen/component/servo/v1/servo_pb.js";
import { Code, createEncoderService, createMotorService, createServoService, type ManualClock } from "../../../core/index.js";
import { createRpcMachine, entry, failure, flush, testCall, type RpcMachine } from "./rpc-machine.js";

let machine: RpcMachine | undefined;
afterEach(async () => {
  await machine?.close();
  machine = undefined;
});

async function motionMachine() {
  machine = await createRpcMachine([
    entry("encoder", "enc"),
    entry("motor", "m", { max_rpm: 120, encoder: "enc", ticks_per_rotation: 100 }),
    entry("servo", "arm", { speed_deg_per_sec: 90 }),
    entry("motor", "plain", { board: "pi", pins: { pwm: "12", dir: "13" } }, "rdk:builtin:gpio"),
    entry("board", "pi"),
  ]);
  const clock = machine.clock as ManualClock;
  return {
    clock,
    motor: createMotorService(machine.lookup),
    servo: createServoService(machine.lookup),
    encoder: createEncoderService(machine.lookup),
  };
}

const m = { name: "m" };

describe("MotorService", () => {
  it("GoFor waits for the revolutions, marks the motor driven, and the encoder counts them", async () => {
    const { clock, motor, encoder } = await motionMachine();
    const call = testCall("/viam.component.motor.v1.MotorService/GoFor");
    let done = false;
    const going = motor.goFor(create(mo.GoForRequestSchema, { ...m, rpm: 60, revolutions: 2 }), call).then(() => (done = true));
    await flush();
    expect(call.driven).toEqual(["rdk:component:motor/m"]);
    expect(await motor.isMoving(create(mo.IsMovingRequestSchema, m), call)).toEqual({ isMoving: true });
    clock.advance(1_000);
    await flush();
    expect(done).toBe(false);
    expect(await motor.getPosition(create(mo.GetPositionRequestSchema, m), call)).toEqual({ position: 1 });
    expect(await motor.isPowered(create(mo.IsPoweredRequestSchema, m), call)).toEqual({ isOn: true, powerPct: 0.5 });
    clock.advance(1_000);
    await going;
    expect(await motor.getPosition(create(mo.GetPositionRequestSchema, m), call)).toEqual({ position: 2 });
    expect(await motor.isMoving(create(mo.IsMovingRequestSchema, m), call)).toEqual({ isMoving: false });
    expect(await encoder.getPosition(create(enc.GetPositionRequestSchema, { name: "enc" }), call)).toEqual({
      value: 200,
      positionType: enc.PositionType.TICKS_COUNT,
    });
  });

  it("a cancelled GoFor stops the motor where it is and answers CANCELLED", async () => {
    const { clock, motor } = await motionMachine();
    const call = testCall();
    const going = failure(motor.goFor(create(mo.GoForRequestSchema, { ...m, rpm: 60, revolutions: 10 }), call));
    await flush();
    clock.advance(1_500);
    call.cancel();
    expect(await going).toEqual({ code: Code.Canceled, message: "GoFor on rdk:component:motor/m was cancelled; it has been stopped" });
    expect(await motor.isMoving(create(mo.IsMovingRequestSchema, m), call)).toEqual({ isMoving: false });
    clock.advance(5_000);
    expect(await motor.getPosition(create(mo.GetPositionRequestSchema, m), call)).toEqual({ position: 1.5 });
  });

  it("a call cancelled before it starts does not drive the motor", async () => {
    const { motor } = await motionMachine();
    const call = testCall();
    call.cancel();
    expect(await failure(motor.goTo(create(mo.GoToRequestSchema, { ...m, rpm: 60, positionRevolutions: 3 }), call))).toMatchObject({
      code: Code.Canceled,
    });
    expect(call.driven).toEqual([]);
    expect(await motor.isMoving(create(mo.IsMovingRequestSchema, m), call)).toEqual({ isMoving: false });
  });

  it("SetPower and SetRPM run until Stop; GoTo and ResetZeroPosition work in revolutions", async () => {
    const { clock, motor } = await motionMachine();
    const call = testCall();
    await motor.setPower(create(mo.SetPowerRequestSchema, { ...m, powerPct: -0.5 }), call);
    clock.advance(30_000); // 60 rpm backwards for half a minute
    expect(await motor.getPosition(create(mo.GetPositionRequestSchema, m), call)).toEqual({ position: -30 });
    await motor.stop(create(mo.StopRequestSchema, m), call);
    expect(await motor.isPowered(create(mo.IsPoweredRequestSchema, m), call)).toEqual({ isOn: false, powerPct: 0 });
    await motor.resetZeroPosition(create(mo.ResetZeroPositionRequestSchema, { ...m, offset: 0 }), call);
    await motor.setRPM(create(mo.SetRPMRequestSchema, { ...m, rpm: 120 }), call);
    clock.advance(500);
    expect(await motor.getPosition(create(mo.GetPositionRequestSchema, m), call)).toEqual({ position: 1 });
    const going = motor.goTo(create(mo.GoToRequestSchema, { ...m, rpm: 60, positionRevolutions: 0 }), call);
    await flush();
    clock.advance(1_000);
    await going;
    expect(await motor.getPosition(create(mo.GetPositionRequestSchema, m), call)).toEqual({ position: 0 });
    expect(call.driven).toEqual(["rdk:component:motor/m", "rdk:component:motor/m", "rdk:component:motor/m"]);
    expect(await motor.getProperties(create(mo.GetPropertiesRequestSchema, m), call)).toEqual({ positionReporting: true });
  });

  it("refuses a bad speed with INVALID_ARGUMENT, GoTo on a motor without position with UNIMPLEMENTED", async () => {
    const { motor } = await motionMachine();
    const call = testCall();
    expect(await failure(motor.goFor(create(mo.GoForRequestSchema, { ...m, rpm: 0, revolutions: 1 }), call))).toEqual({
      code: Code.InvalidArgument,
      message: "cannot move the motor at an rpm of nearly 0",
    });
    expect(await failure(motor.setRPM(create(mo.SetRPMRequestSchema, { ...m, rpm: Number.NaN }), call))).toEqual({
      code: Code.InvalidArgument,
      message: "rpm must be a finite number, got NaN",
    });
    expect(await failure(motor.goTo(create(mo.GoToRequestSchema, { name: "plain", rpm: 10, positionRevolutions: 1 }), call))).toEqual({
      code: Code.Unimplemented,
      message: "motor plain cannot report its position, so it cannot go to a position",
    });
    expect(await failure(motor.getGeometries(create(GetGeometriesRequestSchema, m), call))).toMatchObject({ code: Code.Unimplemented });
  });
});

describe("ServoService", () => {
  it("Move sweeps at the servo's speed, marks it driven, and reports whole degrees", async () => {
    const { clock, servo } = await motionMachine();
    const call = testCall();
    const moving = servo.move(create(sv.MoveRequestSchema, { name: "arm", angleDeg: 90 }), call);
    await flush();
    expect(call.driven).toEqual(["rdk:component:servo/arm"]);
    clock.advance(500);
    expect(await servo.getPosition(create(sv.GetPositionRequestSchema, { name: "arm" }), call)).toEqual({ positionDeg: 45 });
    expect(await servo.isMoving(create(sv.IsMovingRequestSchema, { name: "arm" }), call)).toEqual({ isMoving: true });
    clock.advance(500);
    await moving;
    expect(await servo.getPosition(create(sv.GetPositionRequestSchema, { name: "arm" }), call)).toEqual({ positionDeg: 90 });
  });

  it("a cancelled Move stops the servo mid-sweep", async () => {
    const { clock, servo } = await motionMachine();
    const call = testCall();
    const moving = failure(servo.move(create(sv.MoveRequestSchema, { name: "arm", angleDeg: 180 }), call));
    await flush();
    clock.advance(1_000);
    call.cancel();
    expect(await moving).toMatchObject({ code: Code.Canceled });
    clock.advance(2_000);
    expect(await servo.getPosition(create(sv.GetPositionRequestSchema, { name: "arm" }), call)).toEqual({ positionDeg: 90 });
    expect(await servo.isMoving(create(sv.IsMovingRequestSchema, { name: "arm" }), call)).toEqual({ isMoving: false });
  });

  it("refuses an angle beyond its range with INVALID_ARGUMENT", async () => {
    const { servo } = await motionMachine();
    expect(await failure(servo.move(create(sv.MoveRequestSchema, { name: "arm", angleDeg: 270 }), testCall()))).toEqual({
      code: Code.InvalidArgument,
      message: "angle 270 is outside 0-180 degrees",
    });
  });
});

describe("EncoderService", () => {
  it("reports ticks, resets, says what it supports, and refuses degrees and unknown position types", async () => {
    const { clock, motor, encoder } = await motionMachine();
    const call = testCall();
    await motor.setRPM(create(mo.SetRPMRequestSchema, { ...m, rpm: 60 }), call);
    clock.advance(1_500);
    const ticks = (positionType?: enc.PositionType) => encoder.getPosition(create(enc.GetPositionRequestSchema, { name: "enc", positionType }), call);
    expect(await ticks()).toEqual({ value: 150, positionType: enc.PositionType.TICKS_COUNT });
    expect(await ticks(enc.PositionType.TICKS_COUNT)).toEqual({ value: 150, positionType: enc.PositionType.TICKS_COUNT });
    expect(await failure(ticks(enc.PositionType.ANGLE_DEGREES))).toMatchObject({ code: Code.InvalidArgument });
    expect(await failure(ticks(7 as enc.PositionType))).toEqual({
      code: Code.InvalidArgument,
      message: "position_type: 7 is not a position type (0 unspecified, 1 ticks, 2 degrees)",
    });
    await encoder.resetPosition(create(enc.ResetPositionRequestSchema, { name: "enc" }), call);
    expect(await ticks()).toEqual({ value: 0, positionType: enc.PositionType.TICKS_COUNT });
    expect(await encoder.getProperties(create(enc.GetPropertiesRequestSchema, { name: "enc" }), call)).toEqual({
      ticksCountSupported: true,
      angleDegreesSupported: false,
    });
  });
});
