// The base models on a manual clock: the fake base takes exactly the time its motion implies and
// can be stopped on the way; the wheeled base turns real fake and gpio motors with the rpm and
// revolutions Viam's differential drive works out, and stops them all when one fails.
import { afterEach, describe, expect, it } from "vitest";
import {
  fakeBaseModel,
  powerSplit,
  spinGoFor,
  straightGoFor,
  velocityRpm,
  WHEELED_MODEL,
  wheeledBaseModel,
  type Base,
} from "../../core/components/base/index.js";
import { isActuator, type Motor } from "../../core/components/index.js";
import type { ModelRegistration } from "../../core/resource/index.js";
import { createTestMachine, entry, tick, type TestMachine } from "./test-machine.js";

let machine: TestMachine;
afterEach(() => machine?.closeAll());

const models = [fakeBaseModel, wheeledBaseModel] as ModelRegistration[];
const still = { x: 0, y: 0, z: 0 };
const forward = (y: number) => ({ x: 0, y, z: 0 });
const turning = (z: number) => ({ x: 0, y: 0, z });

/** Starts a call and reports whether it has returned yet. */
function watch(call: Promise<void>): { done: () => boolean; result: Promise<void> } {
  let finished = false;
  const result = call.then(() => void (finished = true));
  return { done: () => finished, result };
}

async function fakeBase(attributes: Record<string, unknown> = {}): Promise<Base> {
  machine = createTestMachine({}, { models });
  return machine.build<Base>(entry("base", "b", attributes));
}

const state = async (base: Base) => (await base.doCommand({ command: "state" })) as { last: unknown; moving: boolean; travelled_mm: number; spun_deg: number };

describe("the fake base", () => {
  it("answers MoveStraight exactly when its distance at its speed has been driven, moving until then", async () => {
    const base = await fakeBase();
    const call = watch(base.moveStraight(100, 50));
    await tick();
    machine.clock.advance(1_999);
    await tick();
    expect(call.done()).toBe(false);
    expect(await base.isMoving()).toBe(true);
    expect((await state(base)).travelled_mm).toBeCloseTo(99.95, 9);
    machine.clock.advance(1);
    await tick();
    expect(call.done()).toBe(true);
    expect(await base.isMoving()).toBe(false);
    expect(await state(base)).toEqual({ last: { method: "MoveStraight", distance_mm: 100, mm_per_sec: 50 }, moving: false, travelled_mm: 100, spun_deg: 0 });
  });

  it("drives backwards when either the distance or the speed is negative", async () => {
    const base = await fakeBase();
    const first = base.moveStraight(-100, 100);
    machine.clock.advance(1_000);
    await first;
    const second = base.moveStraight(50, -100);
    machine.clock.advance(500);
    await second;
    expect((await state(base)).travelled_mm).toBe(-150);
  });

  it("spins for as long as its angle at its speed, and Stop ends the spin where it is", async () => {
    const base = await fakeBase();
    const call = watch(base.spin(90, 45));
    machine.clock.advance(1_000);
    await base.stop();
    await call.result;
    expect(await base.isMoving()).toBe(false);
    expect((await state(base)).spun_deg).toBe(45);
    machine.clock.advance(10_000);
    expect((await state(base)).spun_deg).toBe(45);
  });

  it("stops at once for a distance or angle of 0 or a speed of 0", async () => {
    const base = await fakeBase();
    await base.moveStraight(0, 100);
    await base.moveStraight(100, 0);
    await base.spin(0, 10);
    expect(await base.isMoving()).toBe(false);
  });

  it("runs at a velocity until stopped, integrating forward along Y and turning about Z", async () => {
    const base = await fakeBase();
    await base.setVelocity(forward(20), turning(-10));
    machine.clock.advance(3_000);
    expect(await base.isMoving()).toBe(true);
    expect(await state(base)).toMatchObject({ moving: true, travelled_mm: 60, spun_deg: -30 });
    await base.stop();
    machine.clock.advance(3_000);
    expect(await state(base)).toMatchObject({ moving: false, travelled_mm: 60, spun_deg: -30 });
  });

  it("moves at a power until stopped, and a power of nothing is standing still", async () => {
    const base = await fakeBase();
    await base.setPower(forward(0.5), turning(0.25));
    expect(await base.isMoving()).toBe(true);
    expect((await state(base)).last).toEqual({ method: "SetPower", linear: forward(0.5), angular: turning(0.25) });
    await base.setPower(still, still);
    expect(await base.isMoving()).toBe(false);
    await base.setPower(forward(-1), still);
    await base.stop();
    expect(await base.isMoving()).toBe(false);
  });

  it("ends a MoveStraight in flight when told something else", async () => {
    const base = await fakeBase();
    const call = watch(base.moveStraight(1_000, 10));
    machine.clock.advance(1_000);
    await base.setPower(forward(0.3), still);
    await call.result;
    expect((await state(base)).travelled_mm).toBe(10);
    expect(await base.isMoving()).toBe(true);
  });

  it("states Viam's fake dimensions, or the configured ones, in its properties", async () => {
    expect(await (await fakeBase()).getProperties()).toEqual({ widthMeters: 0.6, turningRadiusMeters: 0, wheelCircumferenceMeters: 3 });
    await machine.closeAll();
    const configured = await fakeBase({ width_mm: 250, wheel_circumference_mm: 200 });
    expect(await configured.getProperties()).toEqual({ widthMeters: 0.25, turningRadiusMeters: 0, wheelCircumferenceMeters: 0.2 });
  });

  it("refuses a number that is not finite, naming the argument, and echoes other commands", async () => {
    const base = await fakeBase();
    await expect(base.moveStraight(100, Number.NaN)).rejects.toMatchObject({ code: 3, message: "mm_per_sec must be a finite number, got NaN" });
    await expect(base.setVelocity(forward(Infinity), still)).rejects.toMatchObject({ code: 3, message: "linear.y must be a finite number, got Infinity" });
    expect(await base.doCommand({ hello: [1, 2] })).toEqual({ hello: [1, 2] });
    expect(isActuator(base)).toBe(true);
  });

  it("refuses dimensions that are not positive, at their path", () => {
    machine = createTestMachine({}, { models });
    const issues = machine.validate(entry("base", "b", { width_mm: 0, wheel_circumference_mm: "big" })).issues.map((i) => `${i.path}: ${i.message}`);
    expect(issues).toEqual(["components[0].attributes.width_mm: must be greater than 0", "components[0].attributes.wheel_circumference_mm: must be a number"]);
  });
});

describe("the differential drive's arithmetic", () => {
  const geometry = { widthMm: 300, wheelCircumferenceMm: 200, spinSlipFactor: 1 };

  it("turns both sides the distance over the circumference, the signs multiplying into the direction", () => {
    expect(straightGoFor(geometry, 400, 100)).toEqual({ left: { rpm: 30, revolutions: 2 }, right: { rpm: 30, revolutions: 2 } });
    expect(straightGoFor(geometry, -400, 100).left).toEqual({ rpm: -30, revolutions: 2 });
    expect(straightGoFor(geometry, -400, -100).left).toEqual({ rpm: 30, revolutions: 2 });
  });

  it("spins the wheels along the circle of the base's width, more by the slip factor, right forward for a positive angle", () => {
    const quarter = spinGoFor(geometry, 90, 45);
    // A quarter of a 300 mm circle is 75π mm of wheel travel.
    expect(quarter.right.revolutions).toBeCloseTo((75 * Math.PI) / 200, 12);
    expect(quarter.right.rpm).toBeCloseTo(((75 * Math.PI) / 200 / 2) * 60, 12);
    expect(quarter.left.rpm).toBeCloseTo(-quarter.right.rpm, 12);
    expect(spinGoFor(geometry, -90, 45).right.rpm).toBeLessThan(0);
    expect(spinGoFor({ ...geometry, spinSlipFactor: 2 }, 90, 45).right.revolutions).toBeCloseTo(quarter.right.revolutions * 2, 12);
  });

  it("adds half the width times the turn rate to the right side's speed and takes it from the left's", () => {
    expect(velocityRpm(geometry, 100, 0)).toEqual({ left: 30, right: 30 });
    const pivot = velocityRpm(geometry, 0, 180 / Math.PI);
    expect(pivot.right).toBeCloseTo((150 * 60) / 200, 12);
    expect(pivot.left).toBeCloseTo((-150 * 60) / 200, 12);
  });

  it("splits power between the sides, clamped, mirroring the turn when backing up", () => {
    expect(powerSplit(0.5, 0)).toEqual({ left: 0.5, right: 0.5 });
    expect(powerSplit(0, 0.5)).toEqual({ left: -0.5, right: 0.5 });
    expect(powerSplit(1, 1)).toEqual({ left: 0, right: 1 });
    expect(powerSplit(-1, 1)).toEqual({ left: 0, right: -1 });
  });
});

describe("the wheeled base", () => {
  const wheeled = (attributes: Record<string, unknown>) => entry("base", "b", attributes, WHEELED_MODEL);
  const geometry = { width_mm: 300, wheel_circumference_mm: 200 };

  async function driveOn(motorAttributes: Record<string, unknown> = { max_rpm: 600 }) {
    machine = createTestMachine({}, { models });
    const motors: Record<string, Motor> = {};
    for (const name of ["l1", "l2", "r1", "r2"]) motors[name] = await machine.build<Motor>(entry("motor", name, motorAttributes));
    const base = await machine.build<Base>(wheeled({ ...geometry, left: ["l1", "l2"], right: ["r1", "r2"] }));
    return { base, motors, positions: () => Promise.all(["l1", "l2", "r1", "r2"].map((n) => motors[n]!.getPosition())) };
  }

  it("depends on its motors and refuses unequal sides, names twice and missing dimensions, at their paths", () => {
    machine = createTestMachine({}, { models });
    const ok = machine.validate(wheeled({ ...geometry, left: ["l1", "l2"], right: ["r1", "r2"] }));
    expect(ok.issues).toEqual([]);
    expect(ok.requires).toEqual(["l1", "l2", "r1", "r2"]);
    const at = (attributes: Record<string, unknown>) => machine.validate(wheeled(attributes)).issues.map((i) => `${i.path}: ${i.message}`);
    expect(at({})).toEqual([
      "components[0].attributes.left: required",
      "components[0].attributes.right: required",
      "components[0].attributes.width_mm: required",
      "components[0].attributes.wheel_circumference_mm: required",
    ]);
    expect(at({ ...geometry, left: ["a", 7], right: ["b", "a"], spin_slip_factor: -1 })).toEqual([
      "components[0].attributes.left[1]: must be a motor's name",
      'components[0].attributes.right[1]: motor "a" is named twice; a motor drives one wheel',
      "components[0].attributes.spin_slip_factor: must be at least 0",
    ]);
    expect(at({ ...geometry, left: ["a"], right: ["b", "c"] })).toEqual(["components[0].attributes.right: must name as many motors as left (1), not 2"]);
    expect(at({ ...geometry, left: "a", right: [] })).toEqual([
      "components[0].attributes.left: must be a list of motor names",
      "components[0].attributes.right: must name at least one motor",
    ]);
  });

  it("drives MoveStraight as a GoFor of every motor and answers once all have arrived", async () => {
    const { base, motors, positions } = await driveOn();
    // 400 mm at 100 mm/s on 200 mm wheels: 2 revolutions at 30 rpm, 4 seconds.
    const call = watch(base.moveStraight(400, 100));
    await tick();
    expect(await base.isMoving()).toBe(true);
    expect((await motors.l1!.isPowered()).powerPct).toBeCloseTo(30 / 600, 12);
    machine.clock.advance(3_999);
    await tick();
    expect(call.done()).toBe(false);
    machine.clock.advance(1);
    await tick();
    expect(call.done()).toBe(true);
    expect(await positions()).toEqual([2, 2, 2, 2]);
    expect(await base.isMoving()).toBe(false);
  });

  it("spins the left motors backward and the right ones forward by the same revolutions", async () => {
    const { base, positions } = await driveOn();
    const call = base.spin(90, 45);
    machine.clock.advance(2_000);
    await call;
    const turned = (75 * Math.PI) / 200;
    const [l1, l2, r1, r2] = await positions();
    expect([l1, l2, r1, r2].map((p) => Number(p!.toFixed(9)))).toEqual([-turned, -turned, turned, turned].map((p) => Number(p.toFixed(9))));
  });

  it("sets each side's power for SetPower and its rpm for SetVelocity, and Stop stops them all", async () => {
    const { base, motors } = await driveOn({ max_rpm: 100 });
    const powers = async () => Promise.all(["l1", "l2", "r1", "r2"].map(async (n) => (await motors[n]!.isPowered()).powerPct));
    await base.setPower(forward(0.2), turning(0.3));
    expect((await powers()).map((p) => Number(p.toFixed(12)))).toEqual([-0.1, -0.1, 0.5, 0.5]);
    await base.setVelocity(forward(100), still);
    expect(await powers()).toEqual([0.3, 0.3, 0.3, 0.3]);
    machine.clock.advance(60_000);
    expect(await motors.r2!.getPosition()).toBe(30);
    await base.stop();
    expect(await powers()).toEqual([0, 0, 0, 0]);
    expect(await base.isMoving()).toBe(false);
  });

  it("stops every motor and names the ones that failed when a command fails", async () => {
    const { base, motors } = await driveOn();
    await base.setPower(forward(0.5), still);
    // 0.01 mm/s is 0.003 rpm on these wheels, slower than a motor will crawl.
    const failed = base.moveStraight(100, 0.01);
    await expect(failed).rejects.toMatchObject({ code: 3, message: expect.stringMatching(/^motor "l1": cannot move the motor at an rpm of nearly 0; motor "l2": /) });
    for (const motor of Object.values(motors)) expect(await motor.isMoving()).toBe(false);
  });

  it("refuses to build over a dependency that is not a motor", async () => {
    machine = createTestMachine({}, { models });
    await machine.build(entry("sensor", "l1"));
    await machine.build(entry("motor", "r1"));
    await expect(machine.build(wheeled({ ...geometry, left: ["l1"], right: ["r1"] }))).rejects.toMatchObject({
      code: 3,
      message: 'left motor "l1" is rdk:component:sensor/l1, not a motor',
    });
  });

  it("states its width and wheel circumference in metres, turning in place", async () => {
    const { base } = await driveOn();
    expect(await base.getProperties()).toEqual({ widthMeters: 0.3, turningRadiusMeters: 0, wheelCircumferenceMeters: 0.2 });
  });
});
