// The simulated board behaves like wired hardware, through the same IO contract drivers use.
import { describe, expect, it } from "vitest";
import { IOError, requireIO } from "../../hal/io.js";
import { createSimBoard } from "../../hal/sim/index.js";

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("simulated digital pins", () => {
  it("carries an output to a looped input and reports its edges", async () => {
    const board = createSimBoard({ loops: [["11", "13"]] });
    const Digital = requireIO(board.io, "Digital");
    const edges: number[] = [];
    const input = new Digital({ pin: "13", mode: "input", edge: "rising", onReadable: () => edges.push(input.read()) });
    const output = new Digital({ pin: "11", mode: "output" });
    output.write(1);
    output.write(0);
    output.write(1);
    await tick();
    expect(input.read()).toBe(1);
    expect(edges).toEqual([1, 1]);
  });

  it("reads pulls when nothing drives the pin, and outside levels when set", () => {
    const board = createSimBoard();
    const Digital = requireIO(board.io, "Digital");
    const up = new Digital({ pin: "5", mode: "input-pull-up" });
    const down = new Digital({ pin: "6", mode: "input-pull-down" });
    expect([up.read(), down.read()]).toEqual([1, 0]);
    board.pins.setOutside("5", 0);
    expect(up.read()).toBe(0);
  });

  it("refuses a pin already in use, and frees it on close", () => {
    const board = createSimBoard();
    const Digital = requireIO(board.io, "Digital");
    const first = new Digital({ pin: "7", mode: "output" });
    expect(() => new Digital({ pin: "7", mode: "input" })).toThrow(/pin 7 is already in use/);
    first.close();
    expect(() => first.write(1)).toThrow(IOError);
    expect(() => new Digital({ pin: "7", mode: "input" }).close()).not.toThrow();
  });

  it("names a pin the board does not have, and calls no callback after close", async () => {
    const board = createSimBoard({ loops: [["1", "2"]] });
    const Digital = requireIO(board.io, "Digital");
    expect(() => new Digital({ pin: "99", mode: "input" })).toThrow(/no pin "99"/);
    let calls = 0;
    const input = new Digital({ pin: "2", mode: "input", onReadable: () => calls++ });
    const output = new Digital({ pin: "1", mode: "output" });
    output.write(1);
    input.close();
    await tick();
    expect(calls).toBe(0);
  });
});

describe("simulated PWM, analog, I2C and serial", () => {
  it("holds PWM duty and frequency where a test can read them back", () => {
    const board = createSimBoard();
    const pwm = new (requireIO(board.io, "PWM"))({ pin: "12", hz: 1000, resolution: 8 });
    pwm.write(255);
    expect(board.pwm("12")).toMatchObject({ hz: 1000, duty: 1 });
    expect(() => pwm.write(256)).toThrow(/0 to 255/);
    pwm.close();
    expect(board.pwm("12")).toBeUndefined();
  });

  it("reads analog values at the requested resolution", () => {
    const board = createSimBoard();
    board.setAnalog("3", 0.5);
    const adc = new (requireIO(board.io, "Analog"))({ pin: "3", resolution: 12 });
    expect(adc.read()).toBe(2048);
  });

  it("reads and writes device registers over I2C and SMBus", () => {
    const board = createSimBoard({ i2c: [{ bus: 1, address: 0x40, registers: { 0xd0: 0x60 } }] });
    const bus = new (requireIO(board.io, "SMBus"))({ bus: 1, address: 0x40, hz: 100_000 });
    expect(bus.readUint8(0xd0)).toBe(0x60);
    bus.writeUint16(0x10, 0x1234, true);
    expect(bus.readUint16(0x10, true)).toBe(0x1234);
    expect(Array.from(bus.readBuffer(0x10, 2))).toEqual([0x12, 0x34]);
    expect(() => new (requireIO(board.io, "I2C"))({ bus: 1, address: 0x41, hz: 100_000 })).toThrow(/no device answers at 0x41 on bus 1/);
  });

  it("loops serial bytes back, and pairs ports", async () => {
    const board = createSimBoard({ serial: { a: "loopback", b: { pair: "c" }, c: { pair: "b" } } });
    const Serial = requireIO(board.io, "Serial");
    const counts: number[] = [];
    const a = new Serial({ port: "a", baud: 115200, onReadable: (n) => counts.push(n) });
    a.write(Uint8Array.of(1, 2, 3));
    await tick();
    expect(counts).toEqual([3]);
    expect(Array.from(a.read()!)).toEqual([1, 2, 3]);
    expect(a.read()).toBeUndefined();
    const b = new Serial({ port: "b", baud: 9600 });
    const c = new Serial({ port: "c", baud: 9600 });
    b.write(new TextEncoder().encode("hi"));
    expect(new TextDecoder().decode(c.read())).toBe("hi");
  });

  it("says when a host lacks a kind of IO", () => {
    expect(() => requireIO({ name: "tiny" }, "Serial")).toThrow(new IOError("unsupported", "tiny has no Serial IO"));
  });
});
