// The attributes of a board: analog readers and digital interrupts, each a name for a pin. An
// analog reader may sit on an ADS1115/ADS1015 converter on I2C (for boards without analog
// inputs), named by `i2c_bus` and `i2c_address`, its `pin` then being the converter's input.
import { readAttributes, type AttributeReader, type Parsed } from "../attributes.js";
import type { Ads1x15Part } from "./ads1x15.js";

export interface NamedPin {
  name: string;
  pin: string;
}

export interface AnalogEntry extends NamedPin {
  /** Present when the reader is an input of an I2C converter. */
  adc?: { part: Ads1x15Part; bus: number; address: number; channel: number };
}

export interface BoardAttributes {
  analogs: AnalogEntry[];
  digitalInterrupts: NamedPin[];
}

export const DEFAULT_ADC_ADDRESS = 0x48;
const adcParts: readonly Ads1x15Part[] = ["ads1115", "ads1015"];

/** Reads a list of named pins; `place` says where an entry's pin is, for finding repeats. */
function namedPins<T extends NamedPin>(
  a: AttributeReader,
  key: string,
  read: (item: AttributeReader, entry: NamedPin) => T,
  place: (entry: T) => string,
): T[] {
  const out: T[] = [];
  const names = new Set<string>();
  const pins = new Set<string>();
  for (const item of a.list(key)) {
    const name = item.string("name", true);
    const pin = item.pin("pin", true);
    if (name === undefined || pin === undefined) continue;
    const entry = read(item, { name, pin });
    const where = place(entry);
    if (names.has(name)) item.problem("name", `${JSON.stringify(name)} is used by an earlier entry of ${key}`);
    else if (pins.has(where)) item.problem("pin", `pin ${pin} is used by an earlier entry of ${key}`);
    else out.push(entry);
    names.add(name);
    pins.add(where);
  }
  return out;
}

function readAnalog(item: AttributeReader, entry: NamedPin): AnalogEntry {
  if (!item.has("i2c_bus") && !item.has("i2c_address") && !item.has("adc")) return entry;
  const bus = busNumber(item, "i2c_bus");
  const address = item.number("i2c_address", { integer: true, min: 0, max: 0x7f, default: DEFAULT_ADC_ADDRESS })!;
  const part = (item.string("adc") ?? "ads1115") as Ads1x15Part;
  if (adcParts.indexOf(part) < 0) item.problem("adc", `must be one of ${adcParts.join(", ")}`);
  if (!/^[0-3]$/.test(entry.pin)) item.problem("pin", "must be an input of the converter, 0 to 3");
  if (bus === undefined) return entry;
  return { ...entry, adc: { part, bus, address, channel: Number(entry.pin) } };
}

/** An I2C bus number given as a whole number or as a string of one ("1"). */
export function busNumber(a: AttributeReader, key: string, required = true): number | undefined {
  const text = a.pin(key, required);
  if (text === undefined) return undefined;
  if (!/^[0-9]+$/.test(text)) {
    a.problem(key, "must be a bus number, like 1 for /dev/i2c-1");
    return undefined;
  }
  return Number(text);
}

export function readBoardAttributes(attributes: Record<string, unknown>, path: string): Parsed<BoardAttributes> {
  const a = readAttributes(attributes, path);
  const value = {
    analogs: namedPins(a, "analogs", readAnalog, (e) => (e.adc ? `${e.adc.bus}:${e.adc.address}:${e.pin}` : e.pin)),
    digitalInterrupts: namedPins(a, "digital_interrupts", (_item, entry) => entry, (e) => e.pin),
  };
  return { value, issues: a.issues };
}

const namedPinList = {
  type: "array",
  items: {
    type: "object",
    required: ["name", "pin"],
    properties: { name: { type: "string" }, pin: { type: ["string", "integer"] } },
  },
};

export const boardAttributesSchema = {
  type: "object",
  properties: {
    analogs: {
      type: "array",
      description: "analog readers: a name for an analog input pin, or for an input (0-3) of an ADS1115/ADS1015 on I2C",
      items: {
        type: "object",
        required: ["name", "pin"],
        properties: {
          name: { type: "string" },
          pin: { type: ["string", "integer"] },
          i2c_bus: { type: ["string", "integer"], description: "the converter's I2C bus (1 for /dev/i2c-1)" },
          i2c_address: { type: "integer", default: DEFAULT_ADC_ADDRESS },
          adc: { type: "string", enum: adcParts, default: "ads1115" },
        },
      },
    },
    digital_interrupts: { ...namedPinList, description: "interrupts: a name for a pin whose rising edges are counted" },
  },
};
