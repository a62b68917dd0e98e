// The fake board on the simulated board: what it sets is seen on the other side of the wire.
import { afterEach, describe, expect, it } from "vitest";
import type { Board } from "../../core/components/index.js";
import { IOError, requireIO } from "../../hal/io.js";
import { createTestMachine, entry, tick, type TestMachine } from "./test-machine.js";

let machine: TestMachine;
afterEach(() => machine?.closeAll());

describe("fake board GPIO and PWM", () => {
  it("drives pins the simulated board sees, and reads looped pins", async () => {
    machine = createTestMachine({ loops: [["11", "13"]] });
    const board = await machine.build<Board>(entry("board", "b"));
    await board.setGPIO("11", true);
    expect(machine.sim.pins.read("11")).toBe(1);
    expect(await board.getGPIO("13")).toBe(true);
    expect(await board.getGPIO("11")).toBe(true);
    await board.setGPIO("11", false);
    expect(await board.getGPIO("13")).toBe(false);
    machine.sim.pins.setOutside("20", 1);
    expect(await board.getGPIO("20")).toBe(true);
  });

  it("holds PWM duty and frequency on the simulated pin", async () => {
    machine = createTestMachine();
    const board = await machine.build<Board>(entry("board", "b"));
    expect(await board.pwmFrequency("12")).toBe(0);
    await board.setPWM("12", 0.25);
    expect(machine.sim.pwm("12")).toMatchObject({ hz: 800 });
    expect(machine.sim.pwm("12")!.duty).toBeCloseTo(0.25, 2);
    expect(await board.pwm("12")).toBe(0.25);
    await board.setPWMFrequency("12", 2000);
    expect(machine.sim.pwm("12")).toMatchObject({ hz: 2000 });
    expect(machine.sim.pwm("12")!.duty).toBeCloseTo(0.25, 2);
    expect(await board.pwmFrequency("12")).toBe(2000);
    // A frequency set before any duty is used when the PWM starts.
    await board.setPWMFrequency("14", 50);
    await board.setPWM("14", 1);
    expect(machine.sim.pwm("14")).toMatchObject({ hz: 50, duty: 1 });
    await expect(board.setPWM("12", 1.5)).rejects.toThrow(/duty cycle must be from 0 to 1, got 1.5/);
  });

  it("turns a PWM pin into a plain output on SetGPIO, and back", async () => {
    machine = createTestMachine();
    const board = await machine.build<Board>(entry("board", "b"));
    await board.setPWM("5", 0.5);
    await board.setGPIO("5", true);
    expect(machine.sim.pwm("5")).toBeUndefined();
    expect(machine.sim.pins.read("5")).toBe(1);
    expect(await board.pwm("5")).toBe(0);
    await board.setPWM("5", 0.75);
    expect(machine.sim.pwm("5")!.duty).toBeCloseTo(0.75, 2);
  });

  it("writes analog values as PWM on 0-255", async () => {
    machine = createTestMachine();
    const board = await machine.build<Board>(entry("board", "b"));
    await board.writeAnalog("9", 51);
    expect(machine.sim.pwm("9")!.duty).toBeCloseTo(0.2, 2);
    await expect(board.writeAnalog("9", 256)).rejects.toThrow(/0 to 255, got 256/);
  });

  it("names a pin the hardware does not have", async () => {
    machine = createTestMachine();
    const board = await machine.build<Board>(entry("board", "b"));
    await expect(board.setGPIO("99", true)).rejects.toThrow(/no pin "99"/);
  });
});

describe("fake board analog readers and digital interrupts", () => {
  it("reads analog inputs by name, with their range", async () => {
    machine = createTestMachine();
    const board = await machine.build<Board>(entry("board", "b", { analogs: [{ name: "pot", pin: "3" }] }));
    machine.sim.setAnalog("3", 0.5);
    const reading = await board.readAnalogReader("pot");
    expect(reading).toMatchObject({ value: 512, minRange: 0, maxRange: 3.3 });
    expect(reading.stepSize).toBeCloseTo(3.3 / 1024, 6);
    machine.sim.setAnalog("3", 1);
    expect((await board.readAnalogReader("pot")).value).toBe(1023);
    await expect(board.readAnalogReader("knob")).rejects.toThrow(/board b has no analog reader "knob": it has "pot"/);
  });

  it("counts rising edges on an interrupt pin driven through a looped pin", async () => {
    machine = createTestMachine({ loops: [["11", "13"]] });
    const board = await machine.build<Board>(entry("board", "b", { digital_interrupts: [{ name: "ticks", pin: 13 }] }));
    for (let i = 0; i < 5; i++) {
      await board.setGPIO("11", true);
      await board.setGPIO("11", false);
    }
    await tick();
    expect(await board.getDigitalInterruptValue("ticks")).toBe(5);
    expect(await board.getGPIO("13")).toBe(false);
    machine.sim.pins.setOutside("13", 1);
    await tick();
    expect(await board.getDigitalInterruptValue("ticks")).toBe(5);
    await expect(board.setGPIO("13", true)).rejects.toThrow(/pin 13 of board b is busy: digital interrupt "ticks"/);
    await expect(board.getDigitalInterruptValue("nope")).rejects.toThrow(/no digital interrupt "nope"/);
  });
});

describe("fake board lifecycle", () => {
  it("releases every pin on close, so each can be opened again", async () => {
    machine = createTestMachine();
    const board = await machine.build<Board>(
      entry("board", "b", { analogs: [{ name: "a", pin: "3" }], digital_interrupts: [{ name: "i", pin: "4" }] }),
    );
    await board.setGPIO("1", true);
    await board.setPWM("2", 0.5);
    expect(machine.sim.pins.owner("4")).toBeDefined();
    await board.close();
    for (const pin of ["1", "2", "4"]) expect(machine.sim.pins.owner(pin)).toBeUndefined();
    expect(machine.sim.pwm("2")).toBeUndefined();
    const Digital = requireIO(machine.sim.io, "Digital");
    for (const pin of ["1", "2", "4"]) new Digital({ pin, mode: "output" }).close();
    await expect(board.setGPIO("1", true)).rejects.toThrow(/board b is closed/);
  });

  it("closes what it opened when an input cannot be opened", async () => {
    machine = createTestMachine();
    const config = entry("board", "b", { digital_interrupts: [{ name: "ok", pin: "4" }, { name: "bad", pin: "77" }] });
    await expect(machine.build(config)).rejects.toThrow(/digital interrupt "bad" \(pin 77\): the simulated board has no pin "77"/);
    expect(machine.sim.pins.owner("4")).toBeUndefined();
  });

  it("lends its pins to components, says which side holds a pin, and reads a lent pin as it is driven", async () => {
    machine = createTestMachine();
    const board = await machine.build<Board>(entry("board", "b"));
    const pwm = new (requireIO(board.boardIO(), "PWM"))({ pin: "6", hz: 1000 });
    await expect(board.setGPIO("6", true)).rejects.toThrow(/pin 6 of board b is busy: a component wired to the board holds it/);
    await expect(board.setPWM("6", 0.5)).rejects.toSatisfy((e: unknown) => e instanceof IOError && e.code === "busy");
    // Reading a lent pin answers what the component drives on it.
    expect(await board.getGPIO("6")).toBe(false);
    pwm.write(256);
    expect(await board.getGPIO("6")).toBe(true);
    expect(await board.pwm("6")).toBeCloseTo(256 / 1023, 6);
    expect(await board.pwmFrequency("6")).toBe(1000);
    await board.setGPIO("7", true);
    expect(() => new (requireIO(board.boardIO(), "Digital"))({ pin: "7", mode: "output" })).toThrow(/pin 7 of board b is in use by the board \(SetGPIO\)/);
    pwm.close();
    await board.setGPIO("6", true);
    expect(machine.sim.pins.read("6")).toBe(1);
  });

  it("echoes DoCommand", async () => {
    machine = createTestMachine();
    const board = await machine.build<Board>(entry("board", "b"));
    expect(await board.doCommand({ hello: [1, { x: true }] })).toEqual({ hello: [1, { x: true }] });
  });
});

describe("fake board validation", () => {
  it("reports missing and repeated names and pins with their paths", () => {
    machine = createTestMachine();
    const result = machine.validate(
      entry("board", "b", {
        analogs: [{ name: "a", pin: "1" }, { name: "a", pin: "2" }, { pin: "3" }],
        digital_interrupts: [{ name: "i", pin: "4" }, { name: "j", pin: 4 }, "x"],
      }),
      "components[3]",
    );
    expect(result.issues.map((i) => `${i.path}: ${i.message}`).sort()).toEqual([
      'components[3].attributes.analogs[1].name: "a" is used by an earlier entry of analogs',
      "components[3].attributes.analogs[2].name: required",
      "components[3].attributes.digital_interrupts[1].pin: pin 4 is used by an earlier entry of digital_interrupts",
      "components[3].attributes.digital_interrupts[2]: must be an object",
    ]);
    expect(result.requires).toEqual([]);
  });
});
