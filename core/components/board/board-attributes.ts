// The attributes of a board: analog readers and digital interrupts, each a name for a pin.
import { readAttributes, type AttributeReader, type Parsed } from "../attributes.js";

export interface NamedPin {
  name: string;
  pin: string;
}

export interface BoardAttributes {
  analogs: NamedPin[];
  digitalInterrupts: NamedPin[];
}

function namedPins(a: AttributeReader, key: string): NamedPin[] {
  const out: NamedPin[] = [];
  const names = new Set<string>();
  const pins = new Set<string>();
  for (const item of a.list(key)) {
    const name = item.string("name", true);
    const pin = item.pin("pin", true);
    if (name === undefined || pin === undefined) continue;
    if (names.has(name)) item.problem("name", `${JSON.stringify(name)} is used by an earlier entry of ${key}`);
    else if (pins.has(pin)) item.problem("pin", `pin ${pin} is used by an earlier entry of ${key}`);
    else out.push({ name, pin });
    names.add(name);
    pins.add(pin);
  }
  return out;
}

export function readBoardAttributes(attributes: Record<string, unknown>, path: string): Parsed<BoardAttributes> {
  const a = readAttributes(attributes, path);
  const value = { analogs: namedPins(a, "analogs"), digitalInterrupts: namedPins(a, "digital_interrupts") };
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
    analogs: { ...namedPinList, description: "analog readers: a name for an analog input pin" },
    digital_interrupts: { ...namedPinList, description: "interrupts: a name for a pin whose rising edges are counted" },
  },
};
