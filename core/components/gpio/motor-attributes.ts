// The attributes of a GPIO motor: the board it is wired to, how (a PWM pin and a direction pin,
// or an H-bridge's A and B inputs with an optional enable PWM), its top speed and PWM frequency.
import { readAttributes, type AttributeReader, type Parsed } from "../attributes.js";
import { DEFAULT_PWM_HZ } from "../board/board-pins.js";

export type MotorPins =
  | { wiring: "pwm-dir"; pwm: string; dir: string }
  | { wiring: "a-b-pwm"; a: string; b: string; pwm: string }
  | { wiring: "a-b"; a: string; b: string };

export interface GpioMotorAttributes {
  board: string;
  pins: MotorPins | undefined;
  maxRpm: number;
  pwmHz: number;
  dirFlip: boolean;
}

export const DEFAULT_GPIO_MAX_RPM = 100;

function readPins(p: AttributeReader): MotorPins | undefined {
  const a = p.pin("a");
  const b = p.pin("b");
  const pwm = p.pin("pwm");
  const dir = p.pin("dir");
  const before = p.issues.length;
  let pins: MotorPins | undefined;
  if (p.has("a") || p.has("b")) {
    if (!p.has("a")) p.problem("a", "required with pins.b");
    if (!p.has("b")) p.problem("b", "required with pins.a");
    if (p.has("dir")) p.problem("dir", "not used with pins.a and pins.b (they set the direction)");
    if (a !== undefined && b !== undefined) pins = pwm !== undefined ? { wiring: "a-b-pwm", a, b, pwm } : { wiring: "a-b", a, b };
  } else {
    if (!p.has("pwm")) p.problem("pwm", "required");
    if (!p.has("dir")) p.problem("dir", "required");
    if (pwm !== undefined && dir !== undefined) pins = { wiring: "pwm-dir", pwm, dir };
  }
  // One pin cannot be two of the motor's wires.
  const seen = new Map<string, string>();
  const given: Array<[string, string | undefined]> = [["pwm", pwm], ["dir", dir], ["a", a], ["b", b]];
  for (const [key, pin] of given) {
    if (pin === undefined) continue;
    const other = seen.get(pin);
    if (other !== undefined) p.problem(key, `pin ${pin} is also pins.${other}`);
    seen.set(pin, key);
  }
  return p.issues.length === before ? pins : undefined;
}

export function readGpioMotorAttributes(attributes: Record<string, unknown>, path: string): Parsed<GpioMotorAttributes> {
  const a = readAttributes(attributes, path);
  const board = a.string("board", true) ?? "";
  const pinReader = a.object("pins", true);
  const value = {
    board,
    pins: pinReader ? readPins(pinReader) : undefined,
    maxRpm: a.number("max_rpm", { positive: true, default: DEFAULT_GPIO_MAX_RPM })!,
    pwmHz: a.number("pwm_freq", { positive: true, integer: true, default: DEFAULT_PWM_HZ })!,
    dirFlip: a.boolean("dir_flip", false),
  };
  return { value, issues: a.issues };
}

const pin = { type: ["string", "integer"] };

export const gpioMotorAttributesSchema = {
  type: "object",
  required: ["board", "pins"],
  properties: {
    board: { type: "string", description: "the board whose pins drive the motor" },
    pins: {
      type: "object",
      description: "pwm and dir, or a and b (with an optional pwm enable)",
      properties: { pwm: pin, dir: pin, a: pin, b: pin },
    },
    max_rpm: { type: "number", exclusiveMinimum: 0, default: DEFAULT_GPIO_MAX_RPM },
    pwm_freq: { type: "integer", minimum: 1, default: DEFAULT_PWM_HZ },
    dir_flip: { type: "boolean", default: false },
  },
};
