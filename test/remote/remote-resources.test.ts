// Every API's remote resource against the fake it stands for: each interface method called
// through the unix socket answers what the same call on the local fake answers, and what a
// remote call changes is what the local fake then reports.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  hasReadings,
  isActuator,
  isBoard,
  type Board,
  type Encoder,
  type GenericComponent,
  type GenericService,
  type Motor,
  type MovementSensor,
  type PowerSensor,
  type Sensor,
  type Servo,
} from "../../core/index.js";
import { eventually } from "../helpers/eventually.js";
import { tick } from "../components/test-machine.js";
import { createServedMachine, type ServedMachine } from "./served-machine.js";

let served: ServedMachine;
beforeAll(async () => {
  served = await createServedMachine();
});
afterAll(() => served?.close());

/** Both sides of one resource. */
function both<R>(fullName: string): { local: R; remote: R } {
  return { local: served.local(fullName) as R, remote: served.remote(fullName) as R };
}

/** Float fields travel as 32-bit floats. */
const float32 = (n: number) => Math.fround(n);

describe("remote sensor", () => {
  it("returns the fake's readings, nested values, nulls and lists included, and echoes DoCommand", async () => {
    const { local, remote } = both<Sensor>("rdk:component:sensor/s1");
    expect(hasReadings(remote)).toBe(true);
    const readings = await remote.getReadings({ unit: "celsius" });
    expect(readings).toEqual(await local.getReadings());
    expect(readings).toEqual({ temp: 21.5, label: "lab", ok: true, nothing: null, nested: { list: [1, "two", false, null, { deep: 3 }] } });
    const command = { op: "calibrate", points: [1.5, -2, { at: "zero" }], enabled: false, none: null };
    expect(await remote.doCommand(command)).toEqual(await local.doCommand(command));
    expect(await remote.doCommand({})).toEqual({});
  });
});

describe("remote board", () => {
  it("sets and reads GPIO levels the simulated board sees", async () => {
    const { local, remote } = both<Board>("rdk:component:board/b1");
    expect(isBoard(remote)).toBe(true);
    await remote.setGPIO("5", true);
    expect(served.machine.sim.pins.read("5")).toBe(1);
    expect(await remote.getGPIO("5")).toBe(true);
    expect(await local.getGPIO("5")).toBe(true);
    await remote.setGPIO("5", false);
    expect(await remote.getGPIO("5")).toBe(false);
    served.machine.sim.pins.setOutside("20", 1);
    expect(await remote.getGPIO("20")).toBe(await local.getGPIO("20"));
    expect(await remote.getGPIO("20")).toBe(true);
  });

  it("sets and reads PWM duty and frequency", async () => {
    const { local, remote } = both<Board>("rdk:component:board/b1");
    await remote.setPWMFrequency("12", 2000);
    await remote.setPWM("12", 0.25);
    expect(served.machine.sim.pwm("12")).toMatchObject({ hz: 2000 });
    expect(await remote.pwm("12")).toBe(await local.pwm("12"));
    expect(await remote.pwm("12")).toBe(0.25);
    expect(await remote.pwmFrequency("12")).toBe(await local.pwmFrequency("12"));
    expect(await remote.pwmFrequency("12")).toBe(2000);
  });

  it("reads analog readers with their range, writes analog values, and counts interrupts", async () => {
    const { local, remote } = both<Board>("rdk:component:board/b1");
    served.machine.sim.setAnalog("3", 0.5);
    const here = await local.readAnalogReader("pot");
    const there = await remote.readAnalogReader("pot");
    expect(there.value).toBe(here.value);
    expect(there.minRange).toBe(here.minRange);
    expect(there.maxRange).toBe(here.maxRange);
    expect(float32(there.stepSize)).toBe(float32(here.stepSize));

    await remote.writeAnalog("9", 51);
    expect(served.machine.sim.pwm("9")!.duty).toBeCloseTo(0.2, 2);
    expect(await remote.pwm("9")).toBe(await local.pwm("9"));

    const before = await local.getDigitalInterruptValue("ticks");
    for (let i = 0; i < 3; i++) {
      await remote.setGPIO("11", true);
      await remote.setGPIO("11", false);
    }
    await tick();
    expect(await remote.getDigitalInterruptValue("ticks")).toBe(await local.getDigitalInterruptValue("ticks"));
    expect(await remote.getDigitalInterruptValue("ticks")).toBe(before + 3);
    expect(await remote.doCommand({ pins: ["1", "2"] })).toEqual({ pins: ["1", "2"] });
  });

  it("lends no pins across processes, saying so", () => {
    const { remote } = both<Board>("rdk:component:board/b1");
    expect(remote.boardIO().PWM).toBeUndefined();
    expect(remote.boardIO().Digital).toBeUndefined();
    expect(remote.boardIO().name).toMatch(/rdk:component:board\/b1 .*cannot be lent/);
  });
});

describe("remote motor and encoder", () => {
  it("runs GoFor to the end, reporting power, movement and position as the fake does", async () => {
    const { local, remote } = both<Motor>("rdk:component:motor/m1");
    const encoder = both<Encoder>("rdk:component:encoder/e1");
    expect(isActuator(remote)).toBe(true);
    expect(await remote.getProperties()).toEqual(await local.getProperties());
    expect(await remote.getPosition()).toBe(0);

    const going = remote.goFor(60, 2);
    await eventually(async () => ((await remote.isMoving()) ? true : undefined), "the motor to start");
    expect(await remote.isPowered()).toEqual(await local.isPowered());
    expect((await remote.isPowered()).isOn).toBe(true);
    served.machine.clock.advance(2000);
    await going;
    expect(await remote.isMoving()).toBe(false);
    expect(await remote.getPosition()).toBe(await local.getPosition());
    expect(await remote.getPosition()).toBeCloseTo(2, 6);
    expect(await remote.isPowered()).toEqual({ isOn: false, powerPct: 0 });

    // The encoder the motor drives counted what it turned.
    const ticks = await encoder.remote.getPosition();
    expect(ticks).toEqual(await encoder.local.getPosition());
    expect(ticks).toEqual({ value: 200, positionType: "ticks_count" });
    expect(await encoder.remote.getProperties()).toEqual(await encoder.local.getProperties());
    await encoder.remote.resetPosition();
    expect(await encoder.local.getPosition()).toEqual({ value: 0, positionType: "ticks_count" });
    expect(await encoder.remote.getPosition("ticks_count")).toEqual({ value: 0, positionType: "ticks_count" });
    expect(await encoder.remote.doCommand({ a: 1 })).toEqual({ a: 1 });
  });

  it("goes to a position, holds power and RPM until stopped, and resets its zero", async () => {
    const { local, remote } = both<Motor>("rdk:component:motor/m1");
    await remote.resetZeroPosition(0);
    const going = remote.goTo(30, 1);
    await eventually(async () => ((await local.isMoving()) ? true : undefined), "the motor to start");
    served.machine.clock.advance(2000);
    await going;
    expect(await remote.getPosition()).toBeCloseTo(1, 6);

    await remote.setPower(0.5);
    expect(await remote.isPowered()).toEqual(await local.isPowered());
    expect(await remote.isPowered()).toEqual({ isOn: true, powerPct: 0.5 });
    await remote.stop();
    expect(await local.isMoving()).toBe(false);

    await remote.setRPM(-30);
    expect(await remote.isMoving()).toBe(true);
    expect((await remote.isPowered()).powerPct).toBe((await local.isPowered()).powerPct);
    await remote.stop({ reason: "test" });
    expect(await remote.isMoving()).toBe(false);

    await remote.resetZeroPosition(5);
    expect(await remote.getPosition()).toBe(await local.getPosition());
    expect(await remote.getPosition()).toBeCloseTo(5, 6);
    expect(await remote.doCommand({ go: true })).toEqual({ go: true });
  });
});

describe("remote servo", () => {
  it("moves to an angle, reports it, and stops", async () => {
    const { local, remote } = both<Servo>("rdk:component:servo/sv1");
    expect(isActuator(remote)).toBe(true);
    const moving = remote.move(90);
    await eventually(async () => ((await remote.isMoving()) ? true : undefined), "the servo to move");
    served.machine.clock.advance(150);
    expect(await remote.getPosition()).toBe(await local.getPosition());
    expect(await remote.getPosition()).toBe(45);
    served.machine.clock.advance(1000);
    await moving;
    expect(await remote.getPosition()).toBe(90);
    expect(await remote.isMoving()).toBe(await local.isMoving());

    const back = remote.move(0);
    await eventually(async () => ((await local.isMoving()) ? true : undefined), "the servo to move back");
    served.machine.clock.advance(100);
    await remote.stop();
    await back;
    expect(await remote.isMoving()).toBe(false);
    expect(await remote.getPosition()).toBe(await local.getPosition());
    expect(await remote.getPosition()).toBe(60);
    expect(await remote.doCommand({ sweep: [0, 180] })).toEqual({ sweep: [0, 180] });
  });
});

describe("remote movement sensor", () => {
  it("answers every field as the fake does", async () => {
    const { local, remote } = both<MovementSensor>("rdk:component:movement_sensor/ms1");
    expect(await remote.getLinearVelocity()).toEqual(await local.getLinearVelocity());
    expect(await remote.getAngularVelocity()).toEqual(await local.getAngularVelocity());
    expect(await remote.getCompassHeading()).toBe(await local.getCompassHeading());
    expect(await remote.getOrientation()).toEqual(await local.getOrientation());
    expect(await remote.getPosition()).toEqual(await local.getPosition());
    expect(await remote.getProperties()).toEqual(await local.getProperties());
    expect(await remote.getLinearAcceleration()).toEqual(await local.getLinearAcceleration());
    expect(await remote.getReadings()).toEqual(await local.getReadings());
    expect(await remote.doCommand({ x: 1 })).toEqual({ x: 1 });
  });

  it("returns accuracy figures as the decimals they were, though the wire carries 32-bit floats", async () => {
    const { local, remote } = both<MovementSensor>("rdk:component:movement_sensor/ms1");
    expect(await remote.getAccuracy()).toEqual(await local.getAccuracy());
    expect(await remote.getAccuracy()).toEqual({ position_hdop: 0.9, position_vdop: 1.4, compass_degrees_error: 2.5 });
  });
});

describe("remote power sensor", () => {
  it("answers voltage, current, power and readings as the fake does", async () => {
    const { local, remote } = both<PowerSensor>("rdk:component:power_sensor/p1");
    expect(await remote.getVoltage()).toEqual(await local.getVoltage());
    expect(await remote.getVoltage()).toEqual({ volts: 5.1, isAc: true });
    expect(await remote.getCurrent()).toEqual(await local.getCurrent());
    expect(await remote.getPower()).toBe(await local.getPower());
    expect(await remote.getReadings()).toEqual(await local.getReadings());
    expect(await remote.doCommand({ y: "z" })).toEqual({ y: "z" });
  });
});

describe("remote generic component and generic service", () => {
  it("echo DoCommand as the fakes do", async () => {
    const component = both<GenericComponent>("rdk:component:generic/g1");
    const service = both<GenericService>("rdk:service:generic/gs1");
    const command = { name: "self-test", steps: [{ n: 1 }, { n: 2 }], verbose: true };
    expect(await component.remote.doCommand(command)).toEqual(await component.local.doCommand(command));
    expect(await service.remote.doCommand(command)).toEqual(await service.local.doCommand(command));
    expect(await service.remote.doCommand(command)).toEqual(command);
  });
});

describe("through a second hop", () => {
  it("reaches the fakes through remote resources served again, as svc-server serves a module's", async () => {
    const relayed = await served.relay();
    expect(await relayed<Sensor>("rdk:component:sensor/s1").getReadings()).toEqual(await served.local<Sensor>("rdk:component:sensor/s1").getReadings());
    const board = relayed<Board>("rdk:component:board/b1");
    await board.setGPIO("7", true);
    expect(served.machine.sim.pins.read("7")).toBe(1);
    expect(await relayed<MovementSensor>("rdk:component:movement_sensor/ms1").getAccuracy()).toEqual({
      position_hdop: 0.9,
      position_vdop: 1.4,
      compass_degrees_error: 2.5,
    });
    expect(await relayed<GenericService>("rdk:service:generic/gs1").doCommand({ hop: 2 })).toEqual({ hop: 2 });
  });
});
