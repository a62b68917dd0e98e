// The fake sensor (rdk:builtin:fake): returns the readings given in its `readings` attribute,
// or {a: 1, b: 2, c: 3}.
import { formatResourceName, type ModelRegistration } from "../../resource/index.js";
import { failOnIssues, readAttributes } from "../attributes.js";
import { FAKE_MODEL, SENSOR_API } from "../api-names.js";
import type { Sensor } from "../apis/sensor.js";

const DEFAULT_READINGS: Record<string, unknown> = { a: 1, b: 2, c: 3 };

export const fakeSensorModel: ModelRegistration<Sensor> = {
  api: SENSOR_API,
  model: FAKE_MODEL,
  attributesSchema: {
    type: "object",
    properties: { readings: { type: "object", description: "the readings returned, by name", default: DEFAULT_READINGS } },
  },
  validate(config, path) {
    const a = readAttributes(config.attributes, path);
    a.record("readings");
    return { issues: a.issues };
  },
  async build(ctx) {
    const a = readAttributes(ctx.config.attributes, formatResourceName(ctx.name));
    const given = a.record("readings") ?? DEFAULT_READINGS;
    failOnIssues(a.issues);
    // Every caller gets its own copy to keep or change. Flat readings (the common case) copy
    // with a spread; nested ones go through JSON text made once here.
    const flat = Object.keys(given).every((k) => typeof given[k] !== "object" || given[k] === null);
    const text = JSON.stringify(given);
    const copy = flat ? () => ({ ...given }) : () => JSON.parse(text) as Record<string, unknown>;
    return {
      name: ctx.name,
      async getReadings() {
        return copy();
      },
      async doCommand(command) {
        return command;
      },
      async close() {},
    };
  },
};
