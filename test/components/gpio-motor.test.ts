// The GPIO motor drives a board's pins through the HAL: duty and direction are seen on the
// simulated board, the pins are busy for the board while the motor holds them, and free again
// once it is closed.
import { afterEach, describe, expect, it } from "vitest";
import type { Board, Motor } from "../../core/components/index.js";
import { createGraphEngine } from "../../core/graph/index.js";
import { requireIO } from "../../hal/io.js";
import { createTestMachine, entry, type TestMachine } from "./test-machine.js";

let machine: TestMachine;
afterEach(() => machine?.closeAll());

const gpio = (name: string, attributes: Record<string, unknown>) => entry("motor", name, attributes, "rdk:builtin:gpio");

async function boardAndMotor(attributes: Record<string, unknown>): Promise<{ board: Board; motor: Motor }> {
  machine = createTestMachine();
  const board = await machine.build<Board>(entry("board", "b"));
  const motor = await machine.build<Motor>(gpio("m", { board: "b", ...attributes }));
  return { board, motor };
}

describe("gpio motor on a PWM and a direction pin", () => {
  it("shows power as duty and direction on the simulated pins", async () => {
    const { motor } = await boardAndMotor({ pins: { pwm: "12", dir: "16" }, pwm_freq: 1000 });
    expect(machine.sim.pwm("12")).toMatchObject({ hz: 1000, duty: 0 });
    await motor.setPower(0.5);
    expect(machine.sim.pwm("12")!.duty).toBeCloseTo(0.5, 2);
    expect(machine.sim.pins.read("16")).toBe(1);
    await motor.setPower(-0.25);
    expect(machine.sim.pwm("12")!.duty).toBeCloseTo(0.25, 2);
    expect(machine.sim.pins.read("16")).toBe(0);
    await motor.stop();
    expect(machine.sim.pwm("12")!.duty).toBe(0);
    expect(await motor.isMoving()).toBe(false);
  });

  it("runs GoFor for the time its revolutions take, then cuts the duty", async () => {
    const { motor } = await boardAndMotor({ pins: { pwm: "12", dir: "16" }, max_rpm: 200 });
    const move = motor.goFor(100, 5);
    expect(machine.sim.pwm("12")!.duty).toBeCloseTo(0.5, 2);
    machine.clock.advance(2_999);
    expect(await motor.isMoving()).toBe(true);
    machine.clock.advance(1);
    await move;
    expect(machine.sim.pwm("12")!.duty).toBe(0);
    expect(await motor.isPowered()).toEqual({ isOn: false, powerPct: 0 });
  });

  it("reports no position and refuses GoTo", async () => {
    const { motor } = await boardAndMotor({ pins: { pwm: "12", dir: "16" } });
    expect(await motor.getProperties()).toEqual({ positionReporting: false });
    expect(await motor.getPosition()).toBe(0);
    await expect(motor.goTo(10, 1)).rejects.toThrow(/cannot report its position, so it cannot go to a position/);
  });

  it("flips direction when dir_flip is set", async () => {
    const { motor } = await boardAndMotor({ pins: { pwm: "12", dir: "16" }, dir_flip: true });
    await motor.setPower(0.5);
    expect(machine.sim.pins.read("16")).toBe(0);
  });
});

describe("gpio motor on an H-bridge", () => {
  it("sets A and B for the direction and PWM on the enable pin", async () => {
    const { motor } = await boardAndMotor({ pins: { a: "5", b: "6", pwm: "13" } });
    await motor.setPower(0.8);
    expect([machine.sim.pins.read("5"), machine.sim.pins.read("6")]).toEqual([1, 0]);
    expect(machine.sim.pwm("13")!.duty).toBeCloseTo(0.8, 2);
    await motor.setPower(-0.8);
    expect([machine.sim.pins.read("5"), machine.sim.pins.read("6")]).toEqual([0, 1]);
    await motor.stop();
    expect([machine.sim.pins.read("5"), machine.sim.pins.read("6")]).toEqual([0, 0]);
  });

  it("puts PWM on the input of the direction of travel without an enable pin", async () => {
    const { motor } = await boardAndMotor({ pins: { a: "5", b: "6" } });
    await motor.setPower(0.3);
    expect(machine.sim.pwm("5")!.duty).toBeCloseTo(0.3, 2);
    expect(machine.sim.pwm("6")!.duty).toBe(0);
    await motor.setPower(-1);
    expect(machine.sim.pwm("5")!.duty).toBe(0);
    expect(machine.sim.pwm("6")!.duty).toBe(1);
  });
});

describe("gpio motor and its board", () => {
  it("makes its pins busy for the board and releases every one on close", async () => {
    const { board, motor } = await boardAndMotor({ pins: { a: "5", b: "6", pwm: "13" } });
    await expect(board.setGPIO("5", true)).rejects.toThrow(/pin 5 of board b is busy: a component wired to the board holds it/);
    await expect(board.setPWM("13", 0.1)).rejects.toThrow(/pin 13 of board b is busy/);
    await motor.setPower(1);
    await motor.close();
    expect(machine.sim.pwm("13")).toBeUndefined();
    for (const pin of ["5", "6", "13"]) expect(machine.sim.pins.owner(pin)).toBeUndefined();
    await board.setGPIO("5", true);
    new (requireIO(machine.sim.io, "PWM"))({ pin: "13", hz: 100 }).close();
  });

  it("fails to build on a pin the board drives, leaving nothing open", async () => {
    machine = createTestMachine();
    const board = await machine.build<Board>(entry("board", "b"));
    await board.setGPIO("16", true);
    await expect(machine.build(gpio("m", { board: "b", pins: { pwm: "12", dir: "16" } }))).rejects.toThrow(
      /pin 16 of board b is in use by the board \(SetGPIO\)/,
    );
    expect(machine.sim.pins.owner("12")).toBeUndefined();
    expect(machine.sim.pwm("12")).toBeUndefined();
  });

  it("validates the board, pins, max_rpm and pwm_freq, and depends on its board", () => {
    machine = createTestMachine();
    const ok = machine.validate(gpio("m", { board: "b", pins: { pwm: "12", dir: "16" } }));
    expect(ok).toMatchObject({ requires: ["b"], issues: [] });
    const issues = (attributes: Record<string, unknown>) =>
      machine.validate(gpio("m", attributes), "components[2]").issues.map((i) => `${i.path}: ${i.message}`);
    expect(issues({ pins: { dir: "16" }, max_rpm: -1, pwm_freq: 0 })).toEqual([
      "components[2].attributes.board: required",
      "components[2].attributes.pins.pwm: required",
      "components[2].attributes.max_rpm: must be greater than 0",
      "components[2].attributes.pwm_freq: must be greater than 0",
    ]);
    expect(issues({ board: "b" })).toEqual(["components[2].attributes.pins: required"]);
    expect(issues({ board: "b", pins: { a: "5", dir: "6", pwm: "5" } })).toEqual([
      "components[2].attributes.pins.b: required with pins.a",
      "components[2].attributes.pins.dir: not used with pins.a and pins.b (they set the direction)",
      "components[2].attributes.pins.a: pin 5 is also pins.pwm",
    ]);
    expect(issues({ board: "b", pins: { pwm: true, dir: -1 } })).toEqual([
      "components[2].attributes.pins.pwm: must be a pin name or number",
      "components[2].attributes.pins.dir: must be a pin name or number",
    ]);
  });
});

describe("gpio motor through the graph engine", () => {
  it("is built after its board, and its pins are free again when it is removed", async () => {
    machine = createTestMachine();
    const engine = createGraphEngine({ registry: machine.registry, clock: machine.clock });
    const board = entry("board", "b");
    const motor = gpio("m", { board: "b", pins: { pwm: "12", dir: "16" } });
    const applied = await engine.apply({ components: [motor, board] });
    expect(applied.outcome).toBe("applied");
    const running = engine.resource("m") as Motor;
    await running.setPower(0.5);
    expect(machine.sim.pwm("12")!.duty).toBeCloseTo(0.5, 2);
    await engine.apply({ components: [board] });
    expect(machine.sim.pwm("12")).toBeUndefined();
    await (engine.resource("b") as Board).setPWM("12", 0.1);
    const report = await engine.close();
    expect(report.failed).toEqual([]);
    expect(machine.sim.pins.owner("12")).toBeUndefined();
  });
});
