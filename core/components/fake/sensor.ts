// The fake sensor (rdk:builtin:fake): returns the readings given in its `readings` attribute,
// or {a: 1, b: 2, c: 3}.
import { formatResourceName, type CommandPayload, type ModelRegistration, type ResourceName } from "../../resource/index.js";
import { failOnIssues, readAttributes } from "../attributes.js";
import { FAKE_MODEL, SENSOR_API } from "../api-names.js";
import type { Sensor } from "../apis/sensor.js";

const DEFAULT_READINGS: Record<string, unknown> = { a: 1, b: 2, c: 3 };

/**
 * One fake sensor. Its methods are the class's, shared by every instance: a microcontroller
 * running twenty sensors keeps twenty small objects, not twenty sets of closures. Every caller
 * gets its own copy of the readings to keep or change: flat readings (the common case) copy with
 * a spread; nested ones go through JSON text made once (`nested`).
 */
class FakeSensor implements Sensor {
  constructor(
    readonly name: ResourceName,
    private readonly given: Record<string, unknown>,
    private readonly nested: string | undefined,
  ) {}

  async getReadings(): Promise<Record<string, unknown>> {
    return this.nested === undefined ? { ...this.given } : (JSON.parse(this.nested) as Record<string, unknown>);
  }

  async doCommand(command: CommandPayload): Promise<CommandPayload> {
    return command;
  }

  async close(): Promise<void> {}
}

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
    const flat = Object.keys(given).every((k) => typeof given[k] !== "object" || given[k] === null);
    return new FakeSensor(ctx.name, given, flat ? undefined : JSON.stringify(given));
  },
};
