// The fake servo (rdk:builtin:fake): sweeps to the commanded angle at a finite speed, so it
// reports moving (and intermediate angles) until it gets there.
import { formatResourceName, type ModelRegistration } from "../../resource/index.js";
import { failOnIssues, readAttributes, type Parsed } from "../attributes.js";
import { FAKE_MODEL, SERVO_API } from "../api-names.js";
import { Code, SvcError } from "../../errors/index.js";
import { requireFinite } from "../require-finite.js";
import type { Servo } from "../apis/servo.js";

export interface FakeServoAttributes {
  minAngle: number;
  maxAngle: number;
  start: number;
  speed: number;
}

export const DEFAULT_SERVO_SPEED = 300;

export function readFakeServoAttributes(attributes: Record<string, unknown>, path: string): Parsed<FakeServoAttributes> {
  const a = readAttributes(attributes, path);
  const minAngle = a.number("min_angle_deg", { min: 0, max: 180, default: 0 })!;
  const maxAngle = a.number("max_angle_deg", { min: 0, max: 180, default: 180 })!;
  if (minAngle >= maxAngle) a.problem("max_angle_deg", `must be greater than min_angle_deg (${minAngle})`);
  const start = a.number("starting_position_deg", { min: minAngle, max: maxAngle, default: minAngle })!;
  const speed = a.number("speed_deg_per_sec", { positive: true, default: DEFAULT_SERVO_SPEED })!;
  return { value: { minAngle, maxAngle, start, speed }, issues: a.issues };
}

export const fakeServoModel: ModelRegistration<Servo> = {
  api: SERVO_API,
  model: FAKE_MODEL,
  attributesSchema: {
    type: "object",
    properties: {
      min_angle_deg: { type: "number", minimum: 0, maximum: 180, default: 0 },
      max_angle_deg: { type: "number", minimum: 0, maximum: 180, default: 180 },
      starting_position_deg: { type: "number", description: "defaults to min_angle_deg" },
      speed_deg_per_sec: { type: "number", exclusiveMinimum: 0, default: DEFAULT_SERVO_SPEED },
    },
  },
  validate(config, path) {
    return { issues: readFakeServoAttributes(config.attributes, path).issues };
  },
  async build(ctx) {
    const { value: attrs, issues } = readFakeServoAttributes(ctx.config.attributes, formatResourceName(ctx.name));
    failOnIssues(issues);
    const { clock } = ctx;
    // The sweep under way: from `from` at `start` to `to` at `end` (milliseconds).
    let from = attrs.start;
    let to = attrs.start;
    let start = clock.now();
    let end = start;
    let timer: unknown;
    let waiter: (() => void) | undefined;

    const angleAt = (now: number) => (now >= end ? to : from + ((to - from) * (now - start)) / (end - start));
    const settle = () => {
      if (timer !== undefined) clock.clearTimeout(timer);
      timer = undefined;
      const done = waiter;
      waiter = undefined;
      done?.();
    };
    const halt = () => {
      const now = clock.now();
      from = to = angleAt(now);
      start = end = now;
      settle();
    };

    return {
      name: ctx.name,
      move(angle) {
        try {
          requireFinite(angle, "angle_deg");
          if (angle < attrs.minAngle || angle > attrs.maxAngle) {
            throw new SvcError(Code.InvalidArgument, `angle ${angle} is outside ${attrs.minAngle}-${attrs.maxAngle} degrees`);
          }
        } catch (thrown) {
          return Promise.reject(thrown);
        }
        halt();
        if (angle === from) return Promise.resolve();
        const ms = (Math.abs(angle - from) / attrs.speed) * 1000;
        to = angle;
        end = start + ms;
        return new Promise<void>((resolve) => {
          waiter = resolve;
          timer = clock.setTimeout(settle, ms);
        });
      },
      async getPosition() {
        return Math.round(angleAt(clock.now()));
      },
      async stop() {
        halt();
      },
      async isMoving() {
        return clock.now() < end;
      },
      async doCommand(command) {
        return command;
      },
      async close() {
        halt();
      },
    };
  },
};
