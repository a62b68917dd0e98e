// Registers every built-in model: the fakes of each API, the GPIO motor, and the sensors that
// talk to a port or bus of their own (the serial line sensor, the INA219).
import type { ModelRegistration, ModelRegistry } from "../resource/index.js";
import type { DeviceIOOptions } from "./device-io.js";
import { fakeBoardModel, type BoardModelOptions } from "./fake/board.js";
import { fakeEncoderModel } from "./fake/encoder.js";
import { fakeGenericComponentModel, fakeGenericServiceModel } from "./fake/generic.js";
import { fakeMotorModel } from "./fake/motor.js";
import { fakeMovementSensorModel } from "./fake/movement-sensor.js";
import { fakePowerSensorModel } from "./fake/power-sensor.js";
import { fakeSensorModel } from "./fake/sensor.js";
import { fakeServoModel } from "./fake/servo.js";
import { gpioMotorModel } from "./gpio/motor.js";
import { ina219Model } from "./i2c/ina219.js";
import { serialLineSensorModel } from "./serial/line-sensor.js";

/** `ioForDevices` defaults to `ioForBoard`: on the sim, sensors share the simulated board. */
export type BuiltinModelOptions = BoardModelOptions & Partial<DeviceIOOptions>;

export function builtinModels(options: BuiltinModelOptions): ModelRegistration[] {
  const devices: DeviceIOOptions = { ioForDevices: options.ioForDevices ?? options.ioForBoard };
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
    serialLineSensorModel(devices),
    ina219Model(devices),
  ] as ModelRegistration[];
}

/** Registers the built-in models; returns the function that removes them again. */
export function registerBuiltinModels(registry: ModelRegistry, options: BuiltinModelOptions): () => void {
  const removers = builtinModels(options).map((model) => registry.register(model));
  return () => {
    for (const remove of removers) remove();
  };
}
