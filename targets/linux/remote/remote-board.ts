// A board served elsewhere, through viam.component.board.v1.BoardService. Numbers the wire
// narrows are checked before sending (analog writes are int32, PWM frequencies uint64) and
// floats are restored on the way back. The board's pins cannot be lent across processes:
// its boardIO() offers no IO kind, so a component wired to it is refused with a clear error
// (requireIO names the board and the IO it lacks).
import { createClient, type Transport } from "@connectrpc/connect";
import type { Board, ResourceName } from "../../../core/index.js";
import { BoardService } from "../../../proto/gen/component/board/v1/board_pb.js";
import { createRemoteCaller, remoteDoCommand } from "./remote-caller.js";
import { fromFloat32, INT32_MAX, INT32_MIN, wireInteger } from "./wire-values.js";

export function createRemoteBoard(name: ResourceName, transport: Transport): Board {
  const client = createClient(BoardService, transport);
  const caller = createRemoteCaller(name);
  const target = caller.target;
  const io = Object.freeze({ name: `board ${caller.fullName} (served by another process; its pins cannot be lent)` });
  return {
    name,
    setGPIO: (pin, high, extra) => caller.call("SetGPIO", async () => void (await client.setGPIO({ name: target, pin, high, extra: caller.extra(extra) }))),
    getGPIO: (pin, extra) => caller.call("GetGPIO", async () => (await client.getGPIO({ name: target, pin, extra: caller.extra(extra) })).high),
    pwm: (pin, extra) => caller.call("PWM", async () => (await client.pWM({ name: target, pin, extra: caller.extra(extra) })).dutyCyclePct),
    setPWM: (pin, dutyCycle, extra) =>
      caller.call("SetPWM", async () => void (await client.setPWM({ name: target, pin, dutyCyclePct: dutyCycle, extra: caller.extra(extra) }))),
    pwmFrequency: (pin, extra) =>
      caller.call("PWMFrequency", async () => Number((await client.pWMFrequency({ name: target, pin, extra: caller.extra(extra) })).frequencyHz)),
    setPWMFrequency: (pin, hz, extra) =>
      caller.call("SetPWMFrequency", async () => {
        const frequencyHz = BigInt(wireInteger(hz, "frequency_hz", 0, Number.MAX_SAFE_INTEGER));
        await client.setPWMFrequency({ name: target, pin, frequencyHz, extra: caller.extra(extra) });
      }),
    readAnalogReader: (reader, extra) =>
      caller.call("ReadAnalogReader", async () => {
        const answer = await client.readAnalogReader({ boardName: target, analogReaderName: reader, extra: caller.extra(extra) });
        return {
          value: answer.value,
          minRange: fromFloat32(answer.minRange),
          maxRange: fromFloat32(answer.maxRange),
          stepSize: fromFloat32(answer.stepSize),
        };
      }),
    writeAnalog: (pin, value, extra) =>
      caller.call("WriteAnalog", async () => {
        const checked = wireInteger(value, "value", INT32_MIN, INT32_MAX);
        await client.writeAnalog({ name: target, pin, value: checked, extra: caller.extra(extra) });
      }),
    getDigitalInterruptValue: (interrupt, extra) =>
      caller.call("GetDigitalInterruptValue", async () => {
        const answer = await client.getDigitalInterruptValue({ boardName: target, digitalInterruptName: interrupt, extra: caller.extra(extra) });
        return Number(answer.value);
      }),
    boardIO: () => io,
    doCommand: remoteDoCommand(caller, client),
    close: caller.close,
  };
}
