// The wheeled base (rdk:builtin:wheeled): a differential drive over motors the machine runs,
// named in `left` and `right` and depended on. MoveStraight and Spin turn every motor with a
// GoFor of the revolutions and rpm the motion implies and answer when all have arrived;
// SetVelocity runs them at the rpm each side needs and SetPower at each side's power, until told
// otherwise; Stop stops them all. It moves while any of its motors does.
import { formatResourceName, type ModelRegistration, type Resource } from "../../resource/index.js";
import { Code, SvcError } from "../../errors/index.js";
import { failOnIssues } from "../attributes.js";
import { BASE_API } from "../api-names.js";
import { requireFinite } from "../require-finite.js";
import type { Base } from "./base.js";
import type { Motor } from "../apis/motor.js";
import type { Vector3 } from "../apis/movement-sensor.js";
import { createMotorSides, type SideMotor } from "./motor-sides.js";
import { readWheeledBaseAttributes, wheeledBaseAttributesSchema } from "./wheeled-attributes.js";
import { powerSplit, spinGoFor, straightGoFor, velocityRpm, type SideGoFor } from "./wheel-speeds.js";

export const WHEELED_MODEL = "rdk:builtin:wheeled";

/** Speeds below this are no speed at all: the base stops rather than crawl forever. */
const STILL = 1e-4;
/** svc's motors refuse to crawl slower than 0.1 rpm; a wheel asked for less holds still. */
const STILL_RPM = 0.1;

function isMotor(resource: Resource | undefined): resource is Resource & Motor {
  const m = resource as Partial<Motor> | undefined;
  return typeof m?.goFor === "function" && typeof m.setPower === "function" && typeof m.stop === "function" && typeof m.isMoving === "function";
}

const finiteVector = (v: Vector3, what: string): Vector3 => ({
  x: requireFinite(v.x, `${what}.x`),
  y: requireFinite(v.y, `${what}.y`),
  z: requireFinite(v.z, `${what}.z`),
});

const isZero = (v: Vector3) => v.x === 0 && v.y === 0 && v.z === 0;

export const wheeledBaseModel: ModelRegistration<Base> = {
  api: BASE_API,
  model: WHEELED_MODEL,
  attributesSchema: wheeledBaseAttributesSchema,
  validate(config, path) {
    const { value, issues } = readWheeledBaseAttributes(config.attributes, path);
    return { requiredDependencies: [...value.left, ...value.right], issues };
  },
  async build(ctx) {
    const { value: geometry, issues } = readWheeledBaseAttributes(ctx.config.attributes, formatResourceName(ctx.name));
    failOnIssues(issues);
    const motorOf = (side: "left" | "right", name: string): SideMotor => {
      const resource = ctx.dependencies.get(name);
      if (resource === undefined) throw new SvcError(Code.Unavailable, `${side} motor ${JSON.stringify(name)} is not running`);
      if (!isMotor(resource)) throw new SvcError(Code.InvalidArgument, `${side} motor ${JSON.stringify(name)} is ${formatResourceName(resource.name)}, not a motor`);
      return { name, side, motor: resource };
    };
    const motors = createMotorSides([...geometry.left.map((n) => motorOf("left", n)), ...geometry.right.map((n) => motorOf("right", n))]);
    const goFor = (side: SideGoFor) => (motor: Motor) => motor.goFor(side.rpm, side.revolutions);
    // A GoFor of 0 revolutions runs until told otherwise.
    const runAt = (rpm: number) => (motor: Motor) => (Math.abs(rpm) < STILL_RPM ? motor.stop() : motor.goFor(rpm, 0));
    const powerOf = (power: number) => (motor: Motor) => motor.setPower(power);

    return {
      name: ctx.name,
      async moveStraight(distanceMm, mmPerSec) {
        requireFinite(distanceMm, "distance_mm");
        requireFinite(mmPerSec, "mm_per_sec");
        if (distanceMm === 0 || Math.abs(mmPerSec) < STILL) return motors.stop();
        const { left, right } = straightGoFor(geometry, distanceMm, mmPerSec);
        await motors.run({ left: goFor(left), right: goFor(right) });
      },
      async spin(angleDeg, degsPerSec) {
        requireFinite(angleDeg, "angle_deg");
        requireFinite(degsPerSec, "degs_per_sec");
        if (angleDeg === 0 || Math.abs(degsPerSec) < STILL) return motors.stop();
        const { left, right } = spinGoFor(geometry, angleDeg, degsPerSec);
        await motors.run({ left: goFor(left), right: goFor(right) });
      },
      async setPower(linear, angular) {
        const l = finiteVector(linear, "linear");
        const a = finiteVector(angular, "angular");
        if (isZero(l) && isZero(a)) return motors.stop();
        const { left, right } = powerSplit(l.y, a.z);
        await motors.run({ left: powerOf(left), right: powerOf(right) });
      },
      async setVelocity(linear, angular) {
        const l = finiteVector(linear, "linear");
        const a = finiteVector(angular, "angular");
        if (isZero(l) && isZero(a)) return motors.stop();
        const { left, right } = velocityRpm(geometry, l.y, a.z);
        await motors.run({ left: runAt(left), right: runAt(right) });
      },
      stop: () => motors.stop(),
      isMoving: () => motors.isMoving(),
      async getProperties() {
        return {
          widthMeters: geometry.widthMm / 1000,
          turningRadiusMeters: 0,
          wheelCircumferenceMeters: geometry.wheelCircumferenceMm / 1000,
        };
      },
      async doCommand(command) {
        return command;
      },
      async close() {
        // The motors outlive the base (dependents close first); they must not keep driving it.
        await motors.stop().catch((error: unknown) => ctx.logger.warn("could not stop the base's motors", { error: String(error) }));
      },
    };
  },
};
