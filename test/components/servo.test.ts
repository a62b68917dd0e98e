// The fake servo sweeps to its angle at a finite speed.
import { afterEach, describe, expect, it } from "vitest";
import { isActuator, type Servo } from "../../core/components/index.js";
import { createTestMachine, entry, tick, type TestMachine } from "./test-machine.js";

let machine: TestMachine;
afterEach(() => machine?.closeAll());

describe("fake servo", () => {
  it("moves to its angle over time, reporting moving until it arrives", async () => {
    machine = createTestMachine();
    const servo = await machine.build<Servo>(entry("servo", "s", { speed_deg_per_sec: 100 }));
    expect(await servo.getPosition()).toBe(0);
    let arrived = false;
    const move = servo.move(90).then(() => void (arrived = true));
    machine.clock.advance(450);
    await tick();
    expect(await servo.isMoving()).toBe(true);
    expect(await servo.getPosition()).toBe(45);
    expect(arrived).toBe(false);
    machine.clock.advance(450);
    await move;
    expect(await servo.isMoving()).toBe(false);
    expect(await servo.getPosition()).toBe(90);
  });

  it("stops where it is, and the interrupted move returns", async () => {
    machine = createTestMachine();
    const servo = await machine.build<Servo>(entry("servo", "s", { starting_position_deg: 180 }));
    const move = servo.move(0);
    machine.clock.advance(100);
    await servo.stop();
    await move;
    expect(await servo.getPosition()).toBe(150);
    expect(await servo.isMoving()).toBe(false);
    expect(isActuator(servo)).toBe(true);
  });

  it("refuses an angle outside its range with a clear error", async () => {
    machine = createTestMachine();
    const servo = await machine.build<Servo>(entry("servo", "s", { min_angle_deg: 10, max_angle_deg: 170 }));
    expect(await servo.getPosition()).toBe(10);
    await expect(servo.move(200)).rejects.toThrow(/angle 200 is outside 10-170 degrees/);
    await expect(servo.move(5)).rejects.toThrow(/angle 5 is outside 10-170 degrees/);
    expect(await servo.isMoving()).toBe(false);
  });

  it("validates its range", () => {
    machine = createTestMachine();
    const result = machine.validate(entry("servo", "s", { min_angle_deg: 90, max_angle_deg: 45, speed_deg_per_sec: 0 }), "components[1]");
    expect(result.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      "components[1].attributes.max_angle_deg: must be greater than min_angle_deg (90)",
      "components[1].attributes.speed_deg_per_sec: must be greater than 0",
    ]);
  });
});
