// The GPIO motor (rdk:builtin:gpio): a DC motor on a motor driver wired to a board's pins. It
// depends on the board by name, drives power as PWM duty and direction levels through the
// board's IO, and estimates its motion from time (it has no encoder, so no position).
import { formatResourceName, type ModelRegistration } from "../../resource/index.js";
import { failOnIssues } from "../attributes.js";
import { GPIO_MODEL, MOTOR_API } from "../api-names.js";
import { Code, SvcError } from "../../errors/index.js";
import { isBoard } from "../apis/board.js";
import type { Motor } from "../apis/motor.js";
import { createMotorControl } from "../motion/motor-control.js";
import { createMotorResource } from "../motion/motor-resource.js";
import { gpioMotorAttributesSchema, readGpioMotorAttributes } from "./motor-attributes.js";
import { openMotorOutputs } from "./motor-wiring.js";

export const gpioMotorModel: ModelRegistration<Motor> = {
  api: MOTOR_API,
  model: GPIO_MODEL,
  attributesSchema: gpioMotorAttributesSchema,
  validate(config, path) {
    const { value, issues } = readGpioMotorAttributes(config.attributes, path);
    return { requiredDependencies: value.board ? [value.board] : [], issues };
  },
  async build(ctx) {
    const { value: attrs, issues } = readGpioMotorAttributes(ctx.config.attributes, formatResourceName(ctx.name));
    failOnIssues(issues);
    const board = ctx.dependencies.get(attrs.board);
    if (!isBoard(board)) {
      const why = board === undefined ? "is not running" : "is not a board";
      throw new SvcError(Code.Unavailable, `board ${JSON.stringify(attrs.board)} ${why}`);
    }
    const outputs = openMotorOutputs(board.boardIO(), attrs.pins!, attrs.pwmHz);
    const direction = attrs.dirFlip ? -1 : 1;
    const control = createMotorControl({
      clock: ctx.clock,
      maxRpm: attrs.maxRpm,
      logger: ctx.logger,
      onPower: (power) => outputs.drive(power * direction),
    });
    return createMotorResource({ name: ctx.name, control, release: outputs.close });
  },
};
