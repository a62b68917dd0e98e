// Registers every built-in model: the fakes of each API and the GPIO motor.
import type { ModelRegistration, ModelRegistry } from "../resource/index.js";
import { fakeBoardModel, type BoardModelOptions } from "./fake/board.js";
import { fakeEncoderModel } from "./fake/encoder.js";
import { fakeGenericComponentModel, fakeGenericServiceModel } from "./fake/generic.js";
import { fakeMotorModel } from "./fake/motor.js";
import { fakeMovementSensorModel } from "./fake/movement-sensor.js";
import { fakePowerSensorModel } from "./fake/power-sensor.js";
import { fakeSensorModel } from "./fake/sensor.js";
import { fakeServoModel } from "./fake/servo.js";
import { gpioMotorModel } from "./gpio/motor.js";

export type BuiltinModelOptions = BoardModelOptions;

export function builtinModels(options: BuiltinModelOptions): ModelRegistration[] {
  return [
    fakeSensorModel,
    fakeBoardModel(options),
    fakeMotorModel,
    fakeServoModel,
    fakeEncoderModel,
    fakeMovementSensorModel,
    fakePowerSensorModel,
    fakeGenericComponentModel,
    fakeGenericServiceModel,
    gpioMotorModel,
  ] as ModelRegistration[];
}

/** Registers the built-in models; returns the function that removes them again. */
export function registerBuiltinModels(registry: ModelRegistry, options: BuiltinModelOptions): () => void {
  const removers = builtinModels(options).map((model) => registry.register(model));
  return () => {
    for (const remove of removers) remove();
  };
}
