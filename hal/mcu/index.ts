// The microcontroller host: Moddable's ECMA-419 IO classes (`device.io`) as our IO provider.
export { createModdableIO } from "./moddable-io.js";
export type { ModdableIOClasses, ModdableIOOptions } from "./moddable-io.js";
export type { ModdableClass, ModdableInstance } from "./moddable-types.js";
