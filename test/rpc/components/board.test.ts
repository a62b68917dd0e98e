// BoardService against the fake board on a simulated board: levels, PWM duty and frequency
// (uint64), analog readers, analog writes, interrupt counts (int64), the methods our board API
// does not have, and argument checks.
import { create } from "@bufbuild/protobuf";
import { afterEach, describe, expect, it } from "vitest";
import { DoCommandRequestSchema, GetGeometriesRequestSchema } from "../../../proto/gen/common/v1/common_pb.js";
import * as b from "../../../proto/gen/component/board/v1/board_pb.js";
import { Code, createBoardService } from "../../../core/index.js";
import { createRpcMachine, entry, failure, flush, testCall, type RpcMachine } from "./rpc-machine.js";

let machine: RpcMachine | undefined;
afterEach(async () => {
  await machine?.close();
  machine = undefined;
});

const call = testCall();

async function boardMachine() {
  machine = await createRpcMachine(
    [
      entry("board", "pi", {
        analogs: [{ name: "light", pin: "30" }],
        digital_interrupts: [{ name: "pulses", pin: "21" }],
      }),
    ],
    { board: { loops: [["20", "21"]] } },
  );
  return { board: createBoardService(machine.lookup), sim: machine.sim };
}

describe("BoardService", () => {
  it("sets and reads GPIO levels, which the simulated pin really takes", async () => {
    const { board, sim } = await boardMachine();
    await board.setGPIO(create(b.SetGPIORequestSchema, { name: "pi", pin: "11", high: true }), call);
    expect(sim.pins.read("11")).toBe(1);
    expect(await board.getGPIO(create(b.GetGPIORequestSchema, { name: "pi", pin: "11" }), call)).toEqual({ high: true });
    await board.setGPIO(create(b.SetGPIORequestSchema, { name: "pi", pin: "11", high: false }), call);
    expect(await board.getGPIO(create(b.GetGPIORequestSchema, { name: "pi", pin: "11" }), call)).toEqual({ high: false });
  });

  it("sets PWM duty (0 to 1) and frequency (uint64 Hz) and reads them back", async () => {
    const { board, sim } = await boardMachine();
    await board.setPWMFrequency(create(b.SetPWMFrequencyRequestSchema, { name: "pi", pin: "12", frequencyHz: 1600n }), call);
    await board.setPWM(create(b.SetPWMRequestSchema, { name: "pi", pin: "12", dutyCyclePct: 0.25 }), call);
    expect(sim.pwm("12")).toMatchObject({ hz: 1600 });
    expect(sim.pwm("12")!.duty).toBeCloseTo(0.25, 2);
    expect(await board.pWM(create(b.PWMRequestSchema, { name: "pi", pin: "12" }), call)).toEqual({ dutyCyclePct: 0.25 });
    expect(await board.pWMFrequency(create(b.PWMFrequencyRequestSchema, { name: "pi", pin: "12" }), call)).toEqual({ frequencyHz: 1600n });
  });

  it("reads an analog reader with its range, writes an analog value, counts interrupt edges as int64", async () => {
    const { board, sim } = await boardMachine();
    sim.setAnalog("30", 0.5);
    const analog = await board.readAnalogReader(create(b.ReadAnalogReaderRequestSchema, { boardName: "pi", analogReaderName: "light" }), call);
    expect(analog).toEqual({ value: 512, minRange: 0, maxRange: 3.3, stepSize: 3.3 / 1024 });
    await board.writeAnalog(create(b.WriteAnalogRequestSchema, { name: "pi", pin: "13", value: 255 }), call);
    expect(sim.pwm("13")?.duty).toBe(1);
    for (const high of [true, false, true, false, true]) {
      await board.setGPIO(create(b.SetGPIORequestSchema, { name: "pi", pin: "20", high }), call);
      await flush();
    }
    const count = await board.getDigitalInterruptValue(
      create(b.GetDigitalInterruptValueRequestSchema, { boardName: "pi", digitalInterruptName: "pulses" }),
      call,
    );
    expect(count).toEqual({ value: 3n });
  });

  it("says what was wrong with a bad argument (INVALID_ARGUMENT) or an unknown reader (NOT_FOUND)", async () => {
    const { board } = await boardMachine();
    expect(await failure(board.setGPIO(create(b.SetGPIORequestSchema, { name: "pi", pin: "" }), call))).toEqual({
      code: Code.InvalidArgument,
      message: "pin: must not be empty",
    });
    expect(await failure(board.setPWM(create(b.SetPWMRequestSchema, { name: "pi", pin: "12", dutyCyclePct: 1.5 }), call))).toEqual({
      code: Code.InvalidArgument,
      message: "duty cycle must be from 0 to 1, got 1.5",
    });
    const huge = create(b.SetPWMFrequencyRequestSchema, { name: "pi", pin: "12", frequencyHz: 2n ** 60n });
    expect(await failure(board.setPWMFrequency(huge, call))).toMatchObject({ code: Code.InvalidArgument });
    expect(await failure(board.writeAnalog(create(b.WriteAnalogRequestSchema, { name: "pi", pin: "13", value: 300 }), call))).toMatchObject({
      code: Code.InvalidArgument,
    });
    const unknown = create(b.ReadAnalogReaderRequestSchema, { boardName: "pi", analogReaderName: "dark" });
    expect(await failure(board.readAnalogReader(unknown, call))).toEqual({
      code: Code.NotFound,
      message: 'board pi has no analog reader "dark": it has "light"',
    });
  });

  it("answers UNIMPLEMENTED for tick streams, power modes and geometries, NOT_FOUND first for an unknown board", async () => {
    const { board } = await boardMachine();
    const ticks = board.streamTicks(create(b.StreamTicksRequestSchema, { name: "pi", pinNames: ["pulses"] }), call);
    const firstTick = failure((async () => {
      for await (const tick of ticks) return tick;
    })());
    expect(await firstTick).toEqual({ code: Code.Unimplemented, message: "rdk:component:board/pi does not support StreamTicks" });
    expect(await failure(board.setPowerMode(create(b.SetPowerModeRequestSchema, { name: "pi" }), call))).toEqual({
      code: Code.Unimplemented,
      message: "rdk:component:board/pi does not support SetPowerMode",
    });
    expect(await failure(board.getGeometries(create(GetGeometriesRequestSchema, { name: "pi" }), call))).toMatchObject({
      code: Code.Unimplemented,
    });
    expect(await failure(board.setPowerMode(create(b.SetPowerModeRequestSchema, { name: "nope" }), call))).toMatchObject({
      code: Code.NotFound,
    });
    expect(await board.doCommand(create(DoCommandRequestSchema, { name: "pi", command: { blink: 3 } }), call)).toEqual({ result: { blink: 3 } });
  });
});
