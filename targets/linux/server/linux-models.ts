// The models svc-server registers on Linux: the built-in ones (fake boards each on a simulated
// board of their own, sensors on this machine's serial ports and I2C buses), the fake camera,
// the fake arm, gripper and gantry,
// the fake navigation and SLAM services, the fake input controller and vision service, the
// data manager (rdk:builtin:builtin and fake),
// the bases (fake, and wheeled over the machine's motors), the motion service (builtin and fake),
// the fake audio in and audio out,
// and the boards on the Linux backends, rdk:builtin:pi (alias `pi`) and rdk:builtin:linux-board,
// the latter with its pin table in its attributes.
import {
  boardModel,
  LINUX_BOARD_MODEL,
  PI_MODEL,
  registerBuiltinModels,
  type ConfigIssue,
  type ModelRegistration,
  type ModelRegistry,
  type ResourceConfig,
} from "../../../core/index.js";
import { fakeBaseModel, wheeledBaseModel } from "../../../core/components/base/index.js";
import type { IOProvider } from "../../../hal/io.js";
import {
  genericDefinitionProperties,
  openLinuxIO,
  parseGenericDefinition,
  raspberryPi,
  type LinuxHost,
  type LinuxIOOptions,
} from "../../../hal/linux/index.js";
import { createSimBoard } from "../../../hal/sim/index.js";
import { fakeInputControllerModel } from "../../../core/components/input-controller/index.js";
import {
  builtinDataManagerModel,
  builtinNavigationModel,
  fakeDataManagerModel,
  fakeNavigationModel,
  fakeSlamModel,
  fakeVisionModel,
  motionModels,
} from "../../../core/services/index.js";
import { fakeArmModel, fakeGantryModel, fakeGripperModel } from "../../../core/components/manipulators/index.js";
import { fakeCameraModel } from "../camera/index.js";
import { fakeAudioInModel, fakeAudioOutModel } from "../../../core/components/audio/index.js";

export interface LinuxModelOptions {
  /** Opens a Linux host; tests give their own sysfs root or libraries through it. */
  openIO?: (options: LinuxIOOptions) => Promise<LinuxHost>;
  /** The components of the configuration in force, whose frames the motion service reads. None: only the world. */
  components?: () => readonly ResourceConfig[] | undefined;
}

const noComponents: readonly ResourceConfig[] = [];

function genericIssues(attributes: Record<string, unknown>, path: string): ConfigIssue[] {
  return parseGenericDefinition(attributes, `${path}.attributes`).issues.map((i) => ({ ...i, severity: "error" as const }));
}

export function linuxBoardModels(options: LinuxModelOptions = {}): ModelRegistration[] {
  const open = options.openIO ?? openLinuxIO;
  const io = async (linux: LinuxIOOptions): Promise<IOProvider> => (await open(linux)).io;
  return [
    boardModel({ model: PI_MODEL, ioForBoard: () => io({ definition: raspberryPi() }) }),
    boardModel({
      model: LINUX_BOARD_MODEL,
      ioForBoard: (config) => io({ definition: parseGenericDefinition(config.attributes ?? {}, "attributes", `board ${config.name}`).definition }),
      hostAttributes: { properties: genericDefinitionProperties, validate: genericIssues },
    }),
  ] as ModelRegistration[];
}

/** Registers every model the Linux server offers; returns the function that removes them again. */
export function registerLinuxModels(registry: ModelRegistry, options: LinuxModelOptions = {}): () => void {
  const open = options.openIO ?? openLinuxIO;
  // One host for every sensor on its own port or bus, opened when the first one is built.
  let devices: Promise<IOProvider> | undefined;
  const removeBuiltins = registerBuiltinModels(registry, {
    ioForBoard: (config) => createSimBoard({ name: config.name }).io,
    ioForDevices: () => (devices ??= open({}).then((host) => host.io)),
  });
  const removers = [
    ...linuxBoardModels(options),
    fakeCameraModel as ModelRegistration,
    fakeArmModel as ModelRegistration,
    fakeGripperModel as ModelRegistration,
    fakeGantryModel as ModelRegistration,
    fakeInputControllerModel as ModelRegistration,
    fakeVisionModel as ModelRegistration,
    builtinDataManagerModel as ModelRegistration,
    fakeDataManagerModel as ModelRegistration,
    fakeNavigationModel as ModelRegistration,
    builtinNavigationModel as ModelRegistration,
    fakeSlamModel as ModelRegistration,
    fakeBaseModel as ModelRegistration,
    wheeledBaseModel as ModelRegistration,
    fakeAudioInModel as ModelRegistration,
    fakeAudioOutModel as ModelRegistration,
    ...motionModels({ components: () => options.components?.() ?? noComponents }),
  ].map((model) => registry.register(model));
  return () => {
    removeBuiltins();
    for (const remove of removers) remove();
  };
}
