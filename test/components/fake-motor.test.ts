// The fake motor turns in simulated time and drives its encoder; GoFor ends exactly on time.
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { isActuator, type Encoder, type Motor } from "../../core/components/index.js";
import { createTestMachine, entry, tick, type TestMachine } from "./test-machine.js";

let machine: TestMachine;
afterEach(() => machine?.closeAll());

async function motorWith(attributes: Record<string, unknown> = {}): Promise<Motor> {
  machine = createTestMachine();
  return machine.build<Motor>(entry("motor", "m", attributes));
}

/** Starts a call and reports whether it has returned yet. */
function watch(call: Promise<void>): { done: () => boolean; result: Promise<void> } {
  let finished = false;
  const result = call.then(() => void (finished = true));
  return { done: () => finished, result };
}

describe("fake motor motion", () => {
  it("integrates position from power over time, and keeps it when stopped", async () => {
    const motor = await motorWith({ max_rpm: 120 });
    expect(await motor.isMoving()).toBe(false);
    await motor.setPower(0.5);
    expect(await motor.isMoving()).toBe(true);
    expect(await motor.isPowered()).toEqual({ isOn: true, powerPct: 0.5 });
    machine.clock.advance(30_000);
    expect(await motor.getPosition()).toBe(30);
    await motor.setPower(-1);
    machine.clock.advance(5_000);
    expect(await motor.getPosition()).toBe(20);
    await motor.stop();
    expect(await motor.isMoving()).toBe(false);
    expect(await motor.isPowered()).toEqual({ isOn: false, powerPct: 0 });
    machine.clock.advance(60_000);
    expect(await motor.getPosition()).toBe(20);
  });

  it("finishes GoFor exactly after its revolutions and not a moment before", async () => {
    const motor = await motorWith();
    const call = watch(motor.goFor(60, 2));
    await tick();
    machine.clock.advance(1_999);
    await tick();
    expect(call.done()).toBe(false);
    expect(await motor.isMoving()).toBe(true);
    expect(await motor.getPosition()).toBeCloseTo(1.999, 9);
    expect((await motor.isPowered()).powerPct).toBe(0.6);
    machine.clock.advance(1);
    await tick();
    expect(call.done()).toBe(true);
    expect(await motor.isMoving()).toBe(false);
    expect(await motor.getPosition()).toBe(2);
    expect(await motor.isPowered()).toEqual({ isOn: false, powerPct: 0 });
  });

  it("turns backwards when either rpm or revolutions is negative", async () => {
    const motor = await motorWith();
    const first = motor.goFor(-100, 1);
    machine.clock.advance(600);
    await first;
    const second = motor.goFor(100, -0.5);
    machine.clock.advance(300);
    await second;
    expect(await motor.getPosition()).toBe(-1.5);
  });

  it("runs until stopped for 0 revolutions, and GoFor returns when stopped early", async () => {
    const motor = await motorWith();
    await motor.goFor(50, 0);
    machine.clock.advance(120_000);
    expect(await motor.isMoving()).toBe(true);
    expect(await motor.getPosition()).toBe(100);
    const call = watch(motor.goFor(100, 10));
    machine.clock.advance(1_500);
    await motor.stop();
    await call.result;
    expect(await motor.getPosition()).toBe(102.5);
    expect(machine.clock.pending()).toBe(0);
  });

  it("goes to a position, and GoFor clamps rpm beyond max_rpm with a warning", async () => {
    const motor = await motorWith({ max_rpm: 60 });
    const there = motor.goTo(30, -1);
    machine.clock.advance(2_000);
    await there;
    expect(await motor.getPosition()).toBe(-1);
    const fast = watch(motor.goFor(600, 1));
    machine.clock.advance(999);
    await tick();
    expect(fast.done()).toBe(false);
    machine.clock.advance(1);
    await fast.result;
    expect(machine.logs.some((l) => l.level === "warn" && /rpm 600 is beyond max_rpm 60/.test(l.message))).toBe(true);
  });

  it("refuses an rpm of zero and numbers that are not finite", async () => {
    const motor = await motorWith();
    await expect(motor.goFor(0, 3)).rejects.toThrow(/rpm of nearly 0/);
    await expect(motor.goTo(0, 3)).rejects.toThrow(/rpm of nearly 0/);
    await expect(motor.setPower(Number.NaN)).rejects.toThrow(/power must be a finite number/);
    expect(await motor.isMoving()).toBe(false);
  });

  it("makes the current position read the offset on ResetZeroPosition", async () => {
    const motor = await motorWith();
    await motor.setRPM(60);
    machine.clock.advance(3_000);
    await motor.resetZeroPosition(0.5);
    expect(await motor.getPosition()).toBe(0.5);
    machine.clock.advance(1_000);
    expect(await motor.getPosition()).toBe(1.5);
    expect(await motor.getProperties()).toEqual({ positionReporting: true });
  });

  it("ends a move for good: a later command does not finish early because of the old timer", async () => {
    const motor = await motorWith();
    const first = watch(motor.goFor(60, 1));
    machine.clock.advance(500);
    const second = watch(motor.goFor(60, 1));
    await tick();
    expect(first.done()).toBe(true);
    machine.clock.advance(500);
    await tick();
    expect(second.done()).toBe(false);
    expect(await motor.isMoving()).toBe(true);
    machine.clock.advance(500);
    await tick();
    expect(second.done()).toBe(true);
    expect(await motor.getPosition()).toBe(1.5);
  });

  it("lands GoFor exactly on its revolutions however the clock is stepped", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: -500, max: 500 }).filter((n) => n !== 0),
        fc.array(fc.integer({ min: 1, max: 5_000 }), { minLength: 1, maxLength: 20 }),
        async (rpm, hundredths, steps) => {
          const motor = await motorWith();
          const revolutions = hundredths / 100;
          const call = watch(motor.goFor(rpm, revolutions));
          const duration = (Math.abs(revolutions) / rpm) * 60_000;
          let elapsed = 0;
          for (const step of steps) {
            machine.clock.advance(step);
            elapsed += step;
            await tick();
            expect(call.done()).toBe(elapsed >= duration);
            expect(await motor.isMoving()).toBe(elapsed < duration);
          }
          machine.clock.advance(duration);
          await call.result;
          expect(await motor.getPosition()).toBe(revolutions);
          await machine.closeAll();
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("fake motor with a fake encoder", () => {
  it("drives the encoder's ticks from what the motor turned", async () => {
    machine = createTestMachine();
    const encoder = await machine.build<Encoder>(entry("encoder", "e"));
    const motor = await machine.build<Motor>(entry("motor", "m", { encoder: "e", ticks_per_rotation: 200 }));
    expect(await encoder.getPosition()).toEqual({ value: 0, positionType: "ticks_count" });
    const move = motor.goFor(60, 2.5);
    machine.clock.advance(1_000);
    expect((await encoder.getPosition()).value).toBe(200);
    machine.clock.advance(1_010);
    expect((await encoder.getPosition("ticks_count")).value).toBe(402);
    machine.clock.advance(10_000);
    await move;
    expect((await encoder.getPosition()).value).toBe(500);
    await encoder.resetPosition();
    const back = motor.goFor(60, -1);
    machine.clock.advance(1_000);
    await back;
    expect((await encoder.getPosition()).value).toBe(-200);
    await motor.resetZeroPosition(0);
    expect((await encoder.getPosition()).value).toBe(0);
    await expect(encoder.getPosition("angle_degrees")).rejects.toThrow(/counts ticks only/);
    expect(await encoder.getProperties()).toEqual({ ticksCountSupported: true, angleDegreesSupported: false });
  });

  it("lets go of the encoder on close, which keeps its count", async () => {
    machine = createTestMachine();
    const encoder = await machine.build<Encoder>(entry("encoder", "e"));
    const motor = await machine.build<Motor>(entry("motor", "m", { encoder: "e" }));
    await motor.setRPM(60);
    machine.clock.advance(1_000);
    await motor.close();
    machine.clock.advance(1_000);
    expect((await encoder.getPosition()).value).toBe(100);
    await machine.build<Motor>(entry("motor", "m2", { encoder: "e" }));
  });

  it("validates its attributes and asks for its encoder as a dependency", () => {
    machine = createTestMachine();
    const good = machine.validate(entry("motor", "m", { encoder: "e" }));
    expect(good).toMatchObject({ requires: ["e"], issues: [] });
    const bad = machine.validate(entry("motor", "m", { max_rpm: -5, ticks_per_rotation: 1.5, encoder: 3 }), "components[2]");
    expect(bad.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      "components[2].attributes.max_rpm: must be greater than 0",
      "components[2].attributes.encoder: must be a non-empty string",
      "components[2].attributes.ticks_per_rotation: must be a whole number",
    ]);
  });

  it("is an actuator and echoes DoCommand", async () => {
    const motor = await motorWith();
    expect(isActuator(motor)).toBe(true);
    expect(await motor.doCommand({ go: 1 })).toEqual({ go: 1 });
  });
});
