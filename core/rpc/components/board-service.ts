// viam.component.board.v1.BoardService: GPIO levels, PWM duty (0 to 1) and frequency (Hz, a
// uint64 on the wire), analog readers and writes, digital interrupt counts (int64). Tick
// streams and power modes are not part of our board API: they answer UNIMPLEMENTED.
import type { BoardService } from "../../../proto/gen/component/board/v1/board_pb.js";
import { BOARD_API, type Board } from "../../components/index.js";
import type { ResourceLookup } from "../resource-lookup.js";
import { Code, SvcError } from "../../errors/index.js";
import type { ServiceHandlers } from "./handler-types.js";
import { invalidArgument, requireText, resolve, unsupported } from "./resolve-resource.js";
import { doCommandMethod, geometriesUnsupportedMethod } from "./shared-methods.js";

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A count or frequency the board reports, as the wire's 64-bit integer. */
function wholeNumber(value: number, what: string): bigint {
  if (typeof value !== "number" || !isFinite(value) || value < 0) {
    throw new SvcError(Code.Internal, `${what}: the board reported ${String(value)}, not a count`);
  }
  return BigInt(Math.round(value));
}

export function createBoardService(lookup: ResourceLookup): ServiceHandlers<typeof BoardService> {
  const board = (name: string, method: keyof Board & string, rpc: string) => resolve<Board>(lookup, BOARD_API, name, method, rpc);
  return {
    async setGPIO(request) {
      await board(request.name, "setGPIO", "SetGPIO").setGPIO(requireText(request.pin, "pin"), request.high, request.extra);
      return {};
    },
    async getGPIO(request) {
      return { high: await board(request.name, "getGPIO", "GetGPIO").getGPIO(requireText(request.pin, "pin"), request.extra) };
    },
    async pWM(request) {
      return { dutyCyclePct: await board(request.name, "pwm", "PWM").pwm(requireText(request.pin, "pin"), request.extra) };
    },
    async setPWM(request) {
      await board(request.name, "setPWM", "SetPWM").setPWM(requireText(request.pin, "pin"), request.dutyCyclePct, request.extra);
      return {};
    },
    async pWMFrequency(request) {
      const hz = await board(request.name, "pwmFrequency", "PWMFrequency").pwmFrequency(requireText(request.pin, "pin"), request.extra);
      return { frequencyHz: wholeNumber(hz, "frequency_hz") };
    },
    async setPWMFrequency(request) {
      const b = board(request.name, "setPWMFrequency", "SetPWMFrequency");
      const pin = requireText(request.pin, "pin");
      if (request.frequencyHz > MAX_SAFE) throw invalidArgument("frequency_hz", `${request.frequencyHz} Hz is beyond any PWM`);
      await b.setPWMFrequency(pin, Number(request.frequencyHz), request.extra);
      return {};
    },
    doCommand: doCommandMethod(lookup, BOARD_API),
    async readAnalogReader(request) {
      const b = board(request.boardName, "readAnalogReader", "ReadAnalogReader");
      const reading = await b.readAnalogReader(requireText(request.analogReaderName, "analog_reader_name"), request.extra);
      return { value: Math.round(reading.value), minRange: reading.minRange, maxRange: reading.maxRange, stepSize: reading.stepSize };
    },
    async writeAnalog(request) {
      await board(request.name, "writeAnalog", "WriteAnalog").writeAnalog(requireText(request.pin, "pin"), request.value, request.extra);
      return {};
    },
    async getDigitalInterruptValue(request) {
      const b = board(request.boardName, "getDigitalInterruptValue", "GetDigitalInterruptValue");
      const count = await b.getDigitalInterruptValue(requireText(request.digitalInterruptName, "digital_interrupt_name"), request.extra);
      return { value: wholeNumber(count, "value") };
    },
    async *streamTicks(request) {
      throw unsupported(lookup.resource(BOARD_API, request.name), "StreamTicks");
    },
    async setPowerMode(request) {
      throw unsupported(lookup.resource(BOARD_API, request.name), "SetPowerMode");
    },
    getGeometries: geometriesUnsupportedMethod(lookup, BOARD_API),
  };
}
