// The machine configuration: types, parsing, defaults and validation.
export type * from "./types.js";
export { parseMachineConfig } from "./parse-machine-config.js";
export { expandModelName, apiFromType, type ResourceKind } from "./resources.js";
export { acceptConfig } from "./config-acceptance.js";
export type { Acceptance } from "./config-acceptance.js";
