// The INA219 power sensor (rdk:builtin:ina219): bus voltage and the voltage across a shunt
// resistor, read over I2C (SMBus); current is the shunt voltage over its resistance, power the
// product. The part's own current and power registers are not used, so no calibration is needed.
import { requireIO, type SMBus } from "../../../hal/io.js";
import { formatResourceName, type BuildContext, type ModelRegistration } from "../../resource/index.js";
import { failOnIssues, readAttributes, type Parsed } from "../attributes.js";
import { INA219_MODEL, POWER_SENSOR_API } from "../api-names.js";
import { busNumber } from "../board/board-attributes.js";
import { closeAll } from "../close-all.js";
import { Code, SvcError } from "../../errors/index.js";
import type { PowerSensor } from "../apis/power-sensor.js";
import type { DeviceIOOptions } from "../device-io.js";

export const INA219_DEFAULT_ADDRESS = 0x40;
export const INA219_DEFAULT_SHUNT_OHMS = 0.1;
/** 32 V bus range, shunt gain /8 (±320 mV), 12-bit conversions, shunt and bus continuous. */
export const INA219_CONFIG = 0x399f;
const REG_CONFIG = 0;
const REG_SHUNT = 1;
const REG_BUS = 2;
const SHUNT_VOLTS_PER_STEP = 10e-6;
const BUS_VOLTS_PER_STEP = 4e-3;

export interface Ina219Attributes {
  bus: number;
  address: number;
  shuntOhms: number;
}

export function readIna219Attributes(attributes: Record<string, unknown>, path: string): Parsed<Ina219Attributes> {
  const a = readAttributes(attributes, path);
  const bus = busNumber(a, "i2c_bus") ?? 0;
  const address = a.number("i2c_addr", { integer: true, min: 0, max: 0x7f, default: INA219_DEFAULT_ADDRESS })!;
  const shuntOhms = a.number("shunt_resistance", { positive: true, default: INA219_DEFAULT_SHUNT_OHMS })!;
  return { value: { bus, address, shuntOhms }, issues: a.issues };
}

/** Volts on the bus and across the shunt, from the part's registers. */
export function readIna219(smbus: SMBus): { bus: number; shunt: number } {
  const shuntRaw = smbus.readUint16(REG_SHUNT, true);
  const shuntSigned = shuntRaw & 0x8000 ? shuntRaw - 0x10000 : shuntRaw;
  const busRaw = smbus.readUint16(REG_BUS, true);
  return { bus: (busRaw >> 3) * BUS_VOLTS_PER_STEP, shunt: shuntSigned * SHUNT_VOLTS_PER_STEP };
}

const ina219Schema = {
  type: "object",
  required: ["i2c_bus"],
  properties: {
    i2c_bus: { type: ["string", "integer"], description: "the I2C bus (1 for /dev/i2c-1)" },
    i2c_addr: { type: "integer", default: INA219_DEFAULT_ADDRESS },
    shunt_resistance: { type: "number", description: "ohms", default: INA219_DEFAULT_SHUNT_OHMS },
  },
};

// The registration's functions are thin: a closure made when the model is registered carries a
// copy of its code on a microcontroller, so the work is in module functions made once.
export function ina219Model(options: DeviceIOOptions): ModelRegistration<PowerSensor> {
  return {
    api: POWER_SENSOR_API,
    model: INA219_MODEL,
    attributesSchema: ina219Schema,
    validate: (config, path) => ({ issues: readIna219Attributes(config.attributes, path).issues }),
    build: (ctx) => buildIna219(ctx, options),
  };
}

async function buildIna219(ctx: BuildContext, options: DeviceIOOptions): Promise<PowerSensor> {
  const { value: attrs, issues } = readIna219Attributes(ctx.config.attributes, formatResourceName(ctx.name));
  failOnIssues(issues);
  const io = await options.ioForDevices(ctx.config);
  const smbus = new (requireIO(io, "SMBus"))({ bus: attrs.bus, address: attrs.address, hz: 400_000 });
  try {
    smbus.writeUint16(REG_CONFIG, INA219_CONFIG, true);
  } catch (thrown) {
    smbus.close();
    throw thrown;
  }
  let closed = false;
  const measure = () => {
    if (closed) throw new SvcError(Code.Unavailable, `power sensor ${ctx.name.name} is closed`);
    const volts = readIna219(smbus);
    const amperes = volts.shunt / attrs.shuntOhms;
    return { volts: volts.bus, amperes, watts: volts.bus * amperes };
  };
  return {
    name: ctx.name,
    async getVoltage() {
      return { volts: measure().volts, isAc: false };
    },
    async getCurrent() {
      return { amperes: measure().amperes, isAc: false };
    },
    async getPower() {
      return measure().watts;
    },
    async getReadings() {
      const m = measure();
      return { voltage: m.volts, current: m.amperes, power: m.watts, is_ac: false };
    },
    async doCommand(command) {
      return command;
    },
    async close() {
      if (closed) return;
      closed = true;
      closeAll([smbus], (s) => s.close());
    },
  };
}
