// The fake motor (rdk:builtin:fake): turns in simulated time at its power times max_rpm, knows
// its position exactly, and drives a fake encoder named in `encoder` so the encoder's ticks
// follow what the motor turned.
import { formatResourceName, type ModelRegistration } from "../../resource/index.js";
import { failOnIssues, readAttributes, type Parsed } from "../attributes.js";
import { FAKE_MODEL, MOTOR_API } from "../api-names.js";
import { Code, SvcError } from "../../errors/index.js";
import type { Motor } from "../apis/motor.js";
import { createMotorControl } from "../motion/motor-control.js";
import { createMotorResource } from "../motion/motor-resource.js";
import { isFakeEncoder } from "./encoder.js";

export interface FakeMotorAttributes {
  maxRpm: number;
  encoder: string | undefined;
  ticksPerRotation: number;
}

export const DEFAULT_MAX_RPM = 100;
export const DEFAULT_TICKS_PER_ROTATION = 100;

export function readFakeMotorAttributes(attributes: Record<string, unknown>, path: string): Parsed<FakeMotorAttributes> {
  const a = readAttributes(attributes, path);
  const value = {
    maxRpm: a.number("max_rpm", { positive: true, default: DEFAULT_MAX_RPM })!,
    encoder: a.string("encoder"),
    ticksPerRotation: a.number("ticks_per_rotation", { positive: true, integer: true, default: DEFAULT_TICKS_PER_ROTATION })!,
  };
  return { value, issues: a.issues };
}

export const fakeMotorModel: ModelRegistration<Motor> = {
  api: MOTOR_API,
  model: FAKE_MODEL,
  attributesSchema: {
    type: "object",
    properties: {
      max_rpm: { type: "number", exclusiveMinimum: 0, default: DEFAULT_MAX_RPM },
      encoder: { type: "string", description: "a fake encoder this motor drives" },
      ticks_per_rotation: { type: "integer", minimum: 1, default: DEFAULT_TICKS_PER_ROTATION },
    },
  },
  validate(config, path) {
    const { value, issues } = readFakeMotorAttributes(config.attributes, path);
    return { requiredDependencies: value.encoder ? [value.encoder] : [], issues };
  },
  async build(ctx) {
    const { value: attrs, issues } = readFakeMotorAttributes(ctx.config.attributes, formatResourceName(ctx.name));
    failOnIssues(issues);
    const control = createMotorControl({ clock: ctx.clock, maxRpm: attrs.maxRpm, logger: ctx.logger });
    let zero = 0;
    let letGo = () => {};
    let resetEncoder = () => {};
    if (attrs.encoder !== undefined) {
      const encoder = ctx.dependencies.get(attrs.encoder);
      if (!isFakeEncoder(encoder)) {
        throw new SvcError(Code.InvalidArgument, `encoder ${JSON.stringify(attrs.encoder)} is not a fake encoder, which a fake motor needs`);
      }
      letGo = encoder.follow(`motor ${ctx.name.name}`, () => control.turned() * attrs.ticksPerRotation);
      resetEncoder = () => void encoder.resetPosition();
    }
    return createMotorResource({
      name: ctx.name,
      control,
      position: {
        read: () => control.turned() - zero,
        resetZero(offset) {
          zero = control.turned() - offset;
          resetEncoder();
        },
      },
      release: () => letGo(),
    });
  },
};
