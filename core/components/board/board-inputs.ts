// A board's named inputs, opened when the board is built: analog readers (the host's Analog IO,
// or an input of an I2C converter) and digital interrupts (pins whose rising edges are counted
// as they arrive, through the Digital IO's onReadable).
import { IOError, requireIO, type Analog, type Digital, type IOProvider } from "../../../hal/io.js";
import { closeAll } from "../close-all.js";
import { Code, SvcError } from "../../errors/index.js";
import type { AnalogValue } from "../apis/board.js";
import { openAds1x15Analog } from "./ads1x15.js";
import type { AnalogEntry, NamedPin } from "./board-attributes.js";

/** The voltage an analog input's full scale stands for. */
export const ANALOG_REFERENCE_VOLTS = 3.3;

export interface BoardInputs {
  readAnalog(name: string): AnalogValue;
  interruptCount(name: string): number;
  /** The interrupt watching a pin, if any. */
  interruptOn(pin: string): string | undefined;
  /** The level of an interrupt's pin. */
  readInterruptPin(pin: string): boolean;
  close(): void;
}

export interface BoardInputsOptions {
  io: IOProvider;
  boardName: string;
  analogs: readonly AnalogEntry[];
  interrupts: readonly NamedPin[];
}

interface AnalogInput {
  io: Analog;
  /** Volts of a full-scale reading. */
  fullScale: number;
}

interface Interrupt {
  pin: string;
  io: Digital;
  edges: { count: number };
}

/** Opens one input; a failure names the input it was for. */
function openNamed<T>(kind: string, { name, pin }: NamedPin, open: () => T): T {
  try {
    return open();
  } catch (thrown) {
    if (thrown instanceof IOError) throw new IOError(thrown.code, `${kind} ${JSON.stringify(name)} (pin ${pin}): ${thrown.message}`);
    throw thrown;
  }
}

export function openBoardInputs(options: BoardInputsOptions): BoardInputs {
  const { io, boardName } = options;
  const analogs = new Map<string, AnalogInput>();
  const interrupts = new Map<string, Interrupt>();
  const byPin = new Map<string, string>();
  const close = () => {
    const handles: Array<Analog | Digital> = [];
    analogs.forEach((a) => handles.push(a.io));
    interrupts.forEach((i) => handles.push(i.io));
    analogs.clear();
    interrupts.clear();
    byPin.clear();
    closeAll(handles, (h) => h.close());
  };

  // Everything opened so far is closed again when one input cannot be opened.
  try {
    for (const entry of options.analogs) {
      const adc = entry.adc;
      const analog: AnalogInput = openNamed("analog reader", entry, () => {
        if (!adc) return { io: new (requireIO(io, "Analog"))({ pin: entry.pin }), fullScale: ANALOG_REFERENCE_VOLTS };
        const converter = openAds1x15Analog(io, adc);
        return { io: converter, fullScale: converter.fullScaleVolts };
      });
      analogs.set(entry.name, analog);
    }
    for (const entry of options.interrupts) {
      const edges = { count: 0 };
      const onReadable = () => {
        edges.count++;
      };
      const digital = openNamed("digital interrupt", entry, () => new (requireIO(io, "Digital"))({ pin: entry.pin, mode: "input", edge: "rising", onReadable }));
      interrupts.set(entry.name, { pin: entry.pin, io: digital, edges });
      byPin.set(entry.pin, entry.name);
    }
  } catch (thrown) {
    close();
    throw thrown;
  }

  const unknown = (kind: string, name: string, known: Map<string, unknown>) => {
    const names = Array.from(known.keys());
    const list = names.length ? `: it has ${names.map((n) => JSON.stringify(n)).join(", ")}` : "";
    return new SvcError(Code.NotFound, `board ${boardName} has no ${kind} ${JSON.stringify(name)}${list}`);
  };

  return {
    readAnalog(name) {
      const analog = analogs.get(name);
      if (!analog) throw unknown("analog reader", name, analogs);
      const steps = 2 ** analog.io.resolution;
      return { value: analog.io.read(), minRange: 0, maxRange: analog.fullScale, stepSize: analog.fullScale / steps };
    },
    interruptCount(name) {
      const interrupt = interrupts.get(name);
      if (!interrupt) throw unknown("digital interrupt", name, interrupts);
      return interrupt.edges.count;
    },
    interruptOn: (pin) => byPin.get(pin),
    readInterruptPin(pin) {
      const name = byPin.get(pin);
      return name !== undefined && interrupts.get(name)!.io.read() === 1;
    },
    close,
  };
}
