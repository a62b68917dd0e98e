// The fake power sensor (rdk:builtin:fake): a steady supply, 12 V DC at 0.5 A unless the
// attributes say otherwise; power is volts times amperes unless given.
import { formatResourceName, type ModelRegistration } from "../../resource/index.js";
import { failOnIssues, readAttributes, type Parsed } from "../attributes.js";
import { FAKE_MODEL, POWER_SENSOR_API } from "../api-names.js";
import type { PowerSensor } from "../apis/power-sensor.js";

export interface FakePowerAttributes {
  volts: number;
  amperes: number;
  watts: number;
  isAc: boolean;
}

export function readFakePowerAttributes(attributes: Record<string, unknown>, path: string): Parsed<FakePowerAttributes> {
  const a = readAttributes(attributes, path);
  const volts = a.number("voltage", { default: 12 })!;
  const amperes = a.number("current", { default: 0.5 })!;
  const watts = a.number("power", { default: volts * amperes })!;
  return { value: { volts, amperes, watts, isAc: a.boolean("is_ac", false) }, issues: a.issues };
}

export const fakePowerSensorModel: ModelRegistration<PowerSensor> = {
  api: POWER_SENSOR_API,
  model: FAKE_MODEL,
  attributesSchema: {
    type: "object",
    properties: {
      voltage: { type: "number", default: 12 },
      current: { type: "number", default: 0.5 },
      power: { type: "number", description: "defaults to voltage times current" },
      is_ac: { type: "boolean", default: false },
    },
  },
  validate(config, path) {
    return { issues: readFakePowerAttributes(config.attributes, path).issues };
  },
  async build(ctx) {
    const { value: v, issues } = readFakePowerAttributes(ctx.config.attributes, formatResourceName(ctx.name));
    failOnIssues(issues);
    return {
      name: ctx.name,
      async getVoltage() {
        return { volts: v.volts, isAc: v.isAc };
      },
      async getCurrent() {
        return { amperes: v.amperes, isAc: v.isAc };
      },
      async getPower() {
        return v.watts;
      },
      async getReadings() {
        return { voltage: v.volts, current: v.amperes, is_ac: v.isAc, power: v.watts };
      },
      async doCommand(command) {
        return command;
      },
      async close() {},
    };
  },
};
