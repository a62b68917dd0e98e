// What a Linux board's pin names mean: which GPIO chip and line each one is, which hardware PWM
// channel drives it, and the default I2C bus. Raspberry Pi 4 and 5 are built in (header pin
// numbers, GPIO/BCM names); any other board is described in a generic form:
//   { "gpio_chip": "gpiochip0", "pins": { "LED": 17 }, "pwm_chip": "pwmchip0",
//     "pwm_channels": { "LED": 1 }, "i2c_bus": 1 }
import { IOError, type PinSpecifier } from "../io.js";

/** A GPIO chip by device name (`gpiochip0`) or by the label its driver gives (`pinctrl-rp1`). */
export type GpioChipSelector = { name: string } | { label: string };
/** A sysfs PWM chip by name (`pwmchip0`) or by the platform device it belongs to (`1f00098000.pwm`). */
export type PwmChipSelector = { name: string } | { device: string };

export interface PwmBlock {
  chip: PwmChipSelector;
  /** GPIO line -> channel of the chip. */
  channels: Record<number, number>;
}

export interface BoardDefinition {
  name: string;
  /** Chips to try in order; the first one present is the board's. */
  gpioChips: GpioChipSelector[];
  /** Pin name -> GPIO line. */
  pins: Record<string, number>;
  /** PWM blocks to try in order; the first one present is used. */
  pwm: PwmBlock[];
  /** The bus an I2C user gets when it names none. */
  i2cBus: number;
  /** How to name a pin on this board, for error messages. */
  pinHelp: string;
}

export interface DefinitionIssue {
  path: string;
  message: string;
}

// Raspberry Pi 40-pin header: physical pin -> BCM GPIO number (the same on every 40-pin Pi).
const PI_HEADER: Record<number, number> = {
  3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24, 19: 10, 21: 9,
  22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19, 36: 16, 37: 26,
  38: 20, 40: 21,
};

function piPins(): Record<string, number> {
  const pins: Record<string, number> = {};
  for (const [header, gpio] of Object.entries(PI_HEADER)) pins[header] = gpio;
  for (let gpio = 0; gpio <= 27; gpio++) {
    pins[`GPIO${gpio}`] = gpio;
    pins[`BCM${gpio}`] = gpio;
    pins[`io${gpio}`] = gpio;
  }
  return pins;
}

const PI_PIN_HELP = "use a header pin number (3 to 40) or a GPIO name (GPIO0 to GPIO27)";
// BCM2711 PWM0 (dtoverlay=pwm-2chan): GPIO12/18 are channel 0, GPIO13/19 channel 1.
const PI4_PWM: PwmBlock = { chip: { device: "fe20c000.pwm" }, channels: { 12: 0, 18: 0, 13: 1, 19: 1 } };
// RP1 PWM0 on a Pi 5: GPIO12, 13, 18, 19 are channels 0 to 3.
const PI5_PWM: PwmBlock = { chip: { device: "1f00098000.pwm" }, channels: { 12: 0, 13: 1, 18: 2, 19: 3 } };

export function raspberryPi4(): BoardDefinition {
  return {
    name: "Raspberry Pi 4",
    gpioChips: [{ label: "pinctrl-bcm2711" }, { name: "gpiochip0" }],
    pins: piPins(),
    pwm: [PI4_PWM],
    i2cBus: 1,
    pinHelp: PI_PIN_HELP,
  };
}

export function raspberryPi5(): BoardDefinition {
  // The RP1's chip is gpiochip4 on older kernels and gpiochip0 on newer ones: found by label.
  return { name: "Raspberry Pi 5", gpioChips: [{ label: "pinctrl-rp1" }], pins: piPins(), pwm: [PI5_PWM], i2cBus: 1, pinHelp: PI_PIN_HELP };
}

/** Any 40-pin Raspberry Pi: a Pi 5 when its RP1 chip is there, else a Pi 4 or earlier. */
export function raspberryPi(): BoardDefinition {
  return {
    name: "Raspberry Pi",
    gpioChips: [{ label: "pinctrl-rp1" }, { label: "pinctrl-bcm2711" }, { label: "pinctrl-bcm2835" }, { name: "gpiochip0" }],
    pins: piPins(),
    pwm: [PI5_PWM, PI4_PWM],
    i2cBus: 1,
    pinHelp: PI_PIN_HELP,
  };
}

/** The built-in definitions by the name `--board` and configurations use. */
export const builtinBoardDefinitions: Record<string, () => BoardDefinition> = {
  pi: raspberryPi,
  pi4: raspberryPi4,
  pi5: raspberryPi5,
};

/** The keys of the generic form, as a JSON schema's properties. */
export const genericDefinitionProperties = {
  gpio_chip: { type: "string", default: "gpiochip0", description: "the GPIO chip: a device name (gpiochip0) or a chip label" },
  pins: { type: "object", additionalProperties: { type: "integer", minimum: 0 }, description: "pin name -> GPIO line of gpio_chip" },
  pwm_chip: { type: "string", description: "the sysfs PWM chip (pwmchip0) or the platform device it belongs to" },
  pwm_channels: { type: "object", additionalProperties: { type: "integer", minimum: 0 }, description: "pin name -> PWM channel of pwm_chip" },
  i2c_bus: { type: ["integer", "string"], default: 1, description: "the default I2C bus (1 for /dev/i2c-1)" },
};

/** The GPIO line a pin name stands for, or an "invalid" IOError naming how the board's pins are named. */
export function lineOfPin(definition: BoardDefinition, pin: PinSpecifier): number {
  const line = definition.pins[String(pin)];
  if (line === undefined) throw new IOError("invalid", `${definition.name} has no pin ${JSON.stringify(String(pin))}: ${definition.pinHelp}`);
  return line;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isLine = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;

/**
 * Reads the generic form; `path` is where it sits (`components[1].attributes`), so every
 * problem names its key. Unknown keys are left for the caller (a board's other attributes).
 */
export function parseGenericDefinition(
  source: Record<string, unknown>,
  path: string,
  name = "Linux board",
): { definition: BoardDefinition; issues: DefinitionIssue[] } {
  const issues: DefinitionIssue[] = [];
  const problem = (key: string, message: string) => issues.push({ path: `${path}.${key}`, message });
  const text = (key: string): string | undefined => {
    const v = source[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v === "string" && v !== "") return v;
    problem(key, "must be a non-empty string");
    return undefined;
  };
  const lineTable = (key: string): Record<string, number> => {
    const v = source[key];
    const out: Record<string, number> = {};
    if (v === undefined || v === null) return out;
    if (!isObject(v)) {
      problem(key, "must be an object of pin name -> number");
      return out;
    }
    for (const [pin, line] of Object.entries(v)) {
      if (isLine(line)) out[pin] = line;
      else problem(`${key}.${pin}`, "must be a whole number, 0 or more");
    }
    return out;
  };

  const chip = text("gpio_chip") ?? "gpiochip0";
  const pins = lineTable("pins");
  const pwmChip = text("pwm_chip");
  const channels = lineTable("pwm_channels");
  const byLine: Record<number, number> = {};
  for (const [pin, channel] of Object.entries(channels)) {
    if (pins[pin] === undefined) problem(`pwm_channels.${pin}`, `${JSON.stringify(pin)} is not a pin of pins`);
    else byLine[pins[pin]!] = channel;
  }
  if (Object.keys(channels).length && !pwmChip) problem("pwm_chip", "required when pwm_channels is given");
  let i2cBus = 1;
  const bus = source.i2c_bus;
  if (bus !== undefined && bus !== null) {
    if (isLine(bus)) i2cBus = bus;
    else if (typeof bus === "string" && /^[0-9]+$/.test(bus)) i2cBus = Number(bus);
    else problem("i2c_bus", "must be a bus number, like 1 for /dev/i2c-1");
  }
  const names = Object.keys(pins);
  const definition: BoardDefinition = {
    name,
    gpioChips: [/^gpiochip[0-9]+$/.test(chip) ? { name: chip } : { label: chip }],
    pins,
    pwm: pwmChip ? [{ chip: /^pwmchip[0-9]+$/.test(pwmChip) ? { name: pwmChip } : { device: pwmChip }, channels: byLine }] : [],
    i2cBus,
    pinHelp: names.length ? `its pins are ${names.slice(0, 12).join(", ")}${names.length > 12 ? ", ..." : ""}` : "its definition names no pins",
  };
  return { definition, issues };
}
