// The agent's clocks: SVC_AGENT_TIME_SCALE speeds up the agent clock, whose waits and readings
// agree (ten scaled minutes pass, as measured on it, when its timer for ten minutes fires), while
// real time stays real. A scale that is not a positive number is refused, naming the variable.
import { describe, expect, it } from "vitest";
import { createManualClock, createScaledClock, every, sleep } from "../../core/index.js";
import { agentClocksFromEnv, TIME_SCALE_ENV } from "../../targets/linux/agent/agent-clock.js";

const MINUTE = 60_000;

describe("the scaled clock", () => {
  it("fires a wait of ten minutes after ten minutes times the scale, and reads ten minutes later then", () => {
    const base = createManualClock(1_000_000);
    const clock = createScaledClock(base, 0.01);
    const start = clock.now();
    let firedAt: number | undefined;
    clock.setTimeout(() => (firedAt = clock.now()), 10 * MINUTE);
    base.advance(6_000 - 1);
    expect(firedAt).toBeUndefined();
    base.advance(1);
    expect(firedAt! - start).toBe(10 * MINUTE);
  });

  it("starts out reading the base clock's time, and is the base clock itself at scale 1", () => {
    const base = createManualClock(5_000);
    expect(createScaledClock(base, 0.5).now()).toBe(5_000);
    const same = createScaledClock(base, 1);
    let fired = false;
    same.setTimeout(() => (fired = true), 100);
    base.advance(100);
    expect(fired).toBe(true);
    expect(same.now()).toBe(base.now());
  });

  it("cancels a timer through the base clock", () => {
    const base = createManualClock(0);
    const clock = createScaledClock(base, 0.1);
    let fired = false;
    clock.clearTimeout(clock.setTimeout(() => (fired = true), 1_000));
    base.advance(1_000);
    expect(fired).toBe(false);
    expect(base.pending()).toBe(0);
  });

  it("repeats with every() until stopped, and sleeps with sleep()", async () => {
    const base = createManualClock(0);
    const clock = createScaledClock(base, 0.001);
    const ticks: number[] = [];
    const stop = every(clock, 5 * MINUTE, () => ticks.push(clock.now()));
    base.advance(900);
    stop();
    base.advance(900);
    expect(ticks).toEqual([5 * MINUTE, 10 * MINUTE, 15 * MINUTE]);
    const slept = sleep(clock, MINUTE);
    base.advance(60);
    await expect(slept).resolves.toBeUndefined();
  });
});

describe("the agent's clocks from the environment", () => {
  it("scales the agent clock by SVC_AGENT_TIME_SCALE and leaves real time alone", () => {
    const real = createManualClock(0);
    const clocks = agentClocksFromEnv({ [TIME_SCALE_ENV]: "0.001" }, real);
    expect(clocks.agent.factor).toBe(0.001);
    expect(clocks.real).toBe(real);
    real.advance(60);
    expect(clocks.agent.now()).toBe(MINUTE);
    expect(agentClocksFromEnv({}, real).agent.factor).toBe(1);
    expect(agentClocksFromEnv({ [TIME_SCALE_ENV]: "" }, real).agent.factor).toBe(1);
  });

  it.each(["0", "-1", "soon", "Infinity"])("refuses %s, naming the variable", (value) => {
    expect(() => agentClocksFromEnv({ [TIME_SCALE_ENV]: value })).toThrow(`${TIME_SCALE_ENV} must be a positive number`);
  });
});
