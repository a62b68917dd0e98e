// hal/mcu passes our IO contract through to Moddable's ECMA-419 classes. Without a device, the
// classes handed in here are stand-ins shaped as Moddable's are (numeric mode and edge
// constants, numeric pins, ArrayBuffers back, plain Errors such as "in use"), driving the
// simulated board underneath, so the fake board model runs on hal/mcu end to end.
import { describe, expect, it } from "vitest";
import {
  createGraphEngine,
  createManualClock,
  createModelRegistry,
  createResourceLookup,
  registerBuiltinModels,
  type Board,
} from "../../core/index.js";
import { IOError, requireIO, type DigitalMode } from "../../hal/io.js";
import { createModdableIO, type ModdableIOClasses } from "../../hal/mcu/index.js";
import { createSimBoard, type SimBoard } from "../../hal/sim/index.js";

const modes: Record<number, DigitalMode> = { 0: "input", 1: "input-pull-up", 2: "input-pull-down", 8: "output", 9: "output-open-drain" };
const edges: Record<number, "rising" | "falling" | "both"> = { 1: "rising", 2: "falling", 3: "both" };

/** Moddable-shaped classes over a simulated board; the sim's own errors come back as Moddable's plain ones. */
function moddableStandIn(sim: SimBoard): ModdableIOClasses {
  const plain = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (e) {
      throw new Error(e instanceof IOError && e.code === "busy" ? "in use" : (e as Error).message);
    }
  };
  const Digital = requireIO(sim.io, "Digital");
  const PWM = requireIO(sim.io, "PWM");
  const Analog = requireIO(sim.io, "Analog");
  const I2C = requireIO(sim.io, "I2C");
  class ModdableDigital {
    static Input = 0;
    static InputPullUp = 1;
    static InputPullDown = 2;
    static Output = 8;
    static OutputOpenDrain = 9;
    static Rising = 1;
    static Falling = 2;
    private inner;
    constructor(o: { pin: number; mode: number; edge?: number; onReadable?: () => void }) {
      if (typeof o.pin !== "number") throw new TypeError("pin must be a number");
      this.inner = plain(() => new Digital({ pin: o.pin, mode: modes[o.mode]!, edge: o.edge ? edges[o.edge] : undefined, onReadable: o.onReadable }));
    }
    read() {
      return this.inner.read();
    }
    write(v: 0 | 1) {
      this.inner.write(v);
    }
    close() {
      this.inner.close();
    }
  }
  class ModdablePWM {
    private inner;
    constructor(o: { pin: number; hz: number; resolution?: number }) {
      this.inner = plain(() => new PWM({ pin: o.pin, hz: o.hz, resolution: o.resolution ?? 8 }));
    }
    get hz() {
      return this.inner.hz;
    }
    get resolution() {
      return this.inner.resolution;
    }
    write(v: number) {
      this.inner.write(v);
    }
    close() {
      this.inner.close();
    }
  }
  class ModdableAnalog {
    private inner;
    constructor(o: { pin: number }) {
      this.inner = plain(() => new Analog({ pin: o.pin, resolution: 12 }));
    }
    get resolution() {
      return 12;
    }
    read() {
      return this.inner.read();
    }
    close() {
      this.inner.close();
    }
  }
  class ModdableI2C {
    private inner;
    constructor(o: { address: number; hz: number; port?: number }) {
      this.inner = plain(() => new I2C({ address: o.address, hz: o.hz, bus: o.port }));
    }
    read(count: number) {
      return this.inner.read(count).slice().buffer;
    }
    write(data: Uint8Array, stop?: boolean) {
      this.inner.write(new Uint8Array(data), stop);
    }
    close() {
      this.inner.close();
    }
  }
  return { Digital: ModdableDigital, PWM: ModdablePWM, Analog: ModdableAnalog, I2C: ModdableI2C } as unknown as ModdableIOClasses;
}

describe("hal/mcu over Moddable-shaped classes", () => {
  it("runs the fake board model: GPIO by header name, PWM duty, analog readers", async () => {
    const sim = createSimBoard({ loops: [["2", "4"]] });
    const io = createModdableIO(moddableStandIn(sim), { name: "esp32", pins: { LED: 2, BUTTON: 4 } });
    const registry = createModelRegistry();
    registerBuiltinModels(registry, { ioForBoard: () => io });
    const engine = createGraphEngine({ registry, clock: createManualClock(0) });
    const result = await engine.apply({
      components: [{ name: "pins", api: "rdk:component:board", model: "rdk:builtin:fake", attributes: { analogs: [{ name: "light", pin: "30" }] }, depends_on: [] }],
    });
    expect(result.outcome).toBe("applied");
    const board = createResourceLookup(engine).resource("rdk:component:board", "pins") as unknown as Board;

    await board.setGPIO("LED", true);
    expect(sim.pins.read("2")).toBe(1);
    expect(await board.getGPIO("BUTTON")).toBe(true);
    await board.setPWM("12", 0.5);
    expect(sim.pwm("12")?.duty).toBeCloseTo(0.5, 2);
    sim.setAnalog("30", 0.25);
    expect((await board.readAnalogReader("light", {})).value).toBe(Math.round(0.25 * 4095));
    await engine.close();
  });

  it("maps the host's errors to IOError: a pin in use, a pin it does not know, a kind it lacks", () => {
    const sim = createSimBoard();
    const io = createModdableIO(moddableStandIn(sim), { name: "pico" });
    const Digital = requireIO(io, "Digital");
    const held = new Digital({ pin: 7, mode: "output" });
    expect(() => new Digital({ pin: "7", mode: "input" })).toThrow(expect.objectContaining({ code: "busy", message: "pico Digital: in use" }));
    expect(() => new Digital({ pin: "GP7", mode: "input" })).toThrow(expect.objectContaining({ code: "invalid", message: 'pico has no pin named "GP7"' }));
    expect(() => requireIO(io, "Serial")).toThrow(/pico has no Serial IO/);
    held.close();
  });

  it("hands back bytes as Uint8Array and writes then reads for a register read", () => {
    const sim = createSimBoard({ i2c: [{ address: 0x40, registers: { 3: 0xab, 4: 0xcd } }] });
    const I2C = requireIO(createModdableIO(moddableStandIn(sim)), "I2C");
    const device = new I2C({ address: 0x40, hz: 100_000 });
    const answer = device.writeRead(new Uint8Array([3]), 2);
    expect(answer).toBeInstanceOf(Uint8Array);
    expect([...answer]).toEqual([0xab, 0xcd]);
    device.close();
  });
});
