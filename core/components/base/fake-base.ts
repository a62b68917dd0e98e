// The fake base (rdk:builtin:fake): a base without motors that moves in simulated time. A
// MoveStraight or Spin lasts as long as its distance and speed imply on the clock and answers on
// arrival, or when stopped or replaced; SetVelocity runs until told otherwise; SetPower has no
// speed to integrate, so it only keeps the base moving. It remembers what it was last told and how
// far it has gone, which DoCommand {"command": "state"} answers; any other command is echoed.
import { formatResourceName, type ModelRegistration } from "../../resource/index.js";
import { failOnIssues, readAttributes, type Parsed } from "../attributes.js";
import { BASE_API, FAKE_MODEL } from "../api-names.js";
import { requireFinite } from "../require-finite.js";
import type { Base } from "./base.js";
import type { Vector3 } from "../apis/movement-sensor.js";
import { createMotorMotion } from "../motion/motor-motion.js";

export interface FakeBaseAttributes {
  widthMm: number;
  wheelCircumferenceMm: number;
}

// Viam's fake base is 600 mm wide, turns in place and declares wheels of 3 m.
export const DEFAULT_FAKE_BASE_WIDTH_MM = 600;
export const DEFAULT_FAKE_BASE_WHEEL_CIRCUMFERENCE_MM = 3000;

/** Speeds below this are no speed at all: the base stops rather than crawl forever. */
const STILL = 1e-4;

export function readFakeBaseAttributes(attributes: Record<string, unknown>, path: string): Parsed<FakeBaseAttributes> {
  const a = readAttributes(attributes, path);
  const value = {
    widthMm: a.number("width_mm", { positive: true, default: DEFAULT_FAKE_BASE_WIDTH_MM })!,
    wheelCircumferenceMm: a.number("wheel_circumference_mm", { positive: true, default: DEFAULT_FAKE_BASE_WHEEL_CIRCUMFERENCE_MM })!,
  };
  return { value, issues: a.issues };
}

const finiteVector = (v: Vector3, what: string): Vector3 => ({
  x: requireFinite(v.x, `${what}.x`),
  y: requireFinite(v.y, `${what}.y`),
  z: requireFinite(v.z, `${what}.z`),
});

const isZero = (v: Vector3) => v.x === 0 && v.y === 0 && v.z === 0;

export const fakeBaseModel: ModelRegistration<Base> = {
  api: BASE_API,
  model: FAKE_MODEL,
  attributesSchema: {
    type: "object",
    properties: {
      width_mm: { type: "number", exclusiveMinimum: 0, default: DEFAULT_FAKE_BASE_WIDTH_MM },
      wheel_circumference_mm: { type: "number", exclusiveMinimum: 0, default: DEFAULT_FAKE_BASE_WHEEL_CIRCUMFERENCE_MM },
    },
  },
  validate(config, path) {
    return { issues: readFakeBaseAttributes(config.attributes, path).issues };
  },
  async build(ctx) {
    const { value: attrs, issues } = readFakeBaseAttributes(ctx.config.attributes, formatResourceName(ctx.name));
    failOnIssues(issues);
    // Millimetres along Y and degrees about Z, each a one-dimensional motion at a speed per minute.
    const travel = createMotorMotion({ clock: ctx.clock });
    const turn = createMotorMotion({ clock: ctx.clock });
    let powered = false;
    let last: Record<string, unknown> | null = null;

    const halt = () => {
      travel.halt();
      turn.halt();
      powered = false;
    };
    /** One motion of set length: the signs of distance and speed multiply into the direction. */
    const go = (motion: typeof travel, distance: number, speed: number): Promise<void> => {
      halt();
      if (distance === 0 || Math.abs(speed) < STILL) return Promise.resolve();
      return motion.run(Math.abs(speed) * 60, speed < 0 ? -distance : distance);
    };

    return {
      name: ctx.name,
      async moveStraight(distanceMm, mmPerSec) {
        requireFinite(distanceMm, "distance_mm");
        requireFinite(mmPerSec, "mm_per_sec");
        last = { method: "MoveStraight", distance_mm: distanceMm, mm_per_sec: mmPerSec };
        await go(travel, distanceMm, mmPerSec);
      },
      async spin(angleDeg, degsPerSec) {
        requireFinite(angleDeg, "angle_deg");
        requireFinite(degsPerSec, "degs_per_sec");
        last = { method: "Spin", angle_deg: angleDeg, degs_per_sec: degsPerSec };
        await go(turn, angleDeg, degsPerSec);
      },
      async setPower(linear, angular) {
        const l = finiteVector(linear, "linear");
        const a = finiteVector(angular, "angular");
        last = { method: "SetPower", linear: l, angular: a };
        halt();
        powered = !isZero(l) || !isZero(a);
      },
      async setVelocity(linear, angular) {
        const l = finiteVector(linear, "linear");
        const a = finiteVector(angular, "angular");
        last = { method: "SetVelocity", linear: l, angular: a };
        halt();
        // A ground base moves along Y and turns about Z; the other components move nothing.
        void travel.run(l.y * 60);
        void turn.run(a.z * 60);
      },
      async stop() {
        halt();
      },
      async isMoving() {
        return powered || travel.isMoving() || turn.isMoving();
      },
      async getProperties() {
        return { widthMeters: attrs.widthMm / 1000, turningRadiusMeters: 0, wheelCircumferenceMeters: attrs.wheelCircumferenceMm / 1000 };
      },
      async doCommand(command) {
        if (command.command !== "state") return command;
        return { last, moving: powered || travel.isMoving() || turn.isMoving(), travelled_mm: travel.turned(), spun_deg: turn.turned() };
      },
      async close() {
        halt();
      },
    };
  },
};
