// On the MCU as on svc-server, a configuration handed to the machine is parsed once.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createManualClock } from "../../core/index.js";
import { createSimBoard } from "../../hal/sim/index.js";
import { createMcuMachine, type McuMachine } from "../../targets/mcu/mcu-machine.js";

let machine: McuMachine | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await machine?.close();
  machine = undefined;
});

describe("the MCU machine", () => {
  it("parses a configuration it is given once", async () => {
    machine = createMcuMachine({ clock: createManualClock(), random: Math.random, ioForBoard: () => createSimBoard().io, sink: { write() {} } });
    const text = JSON.stringify({ components: [{ name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings: { celsius: 20 } } }] });
    const parse = vi.spyOn(JSON, "parse");
    expect(await machine.applyConfig(text)).toMatchObject({ outcome: "applied" });
    expect(parse.mock.calls.filter(([argument]) => argument === text)).toHaveLength(1);
  });
});
