// The machine configuration: types, parsing, defaults and validation.
export type * from "./types.js";
export { isConfigReading, parseMachineConfig, readMachineConfig } from "./parse-machine-config.js";
export type { ConfigReading } from "./parse-machine-config.js";
export { expandModelName, apiFromType, type ResourceKind } from "./resources.js";
export { acceptConfig } from "./config-acceptance.js";
export type { Acceptance } from "./config-acceptance.js";
/** `agent.additional_networks.home.priority`: a data path printed the way issues name it. */
export { formatPath as formatDataPath } from "./data-path.js";
/** Where JSON text first breaks the grammar (`unexpected "}" at line 3, column 7`), the same words on every engine. */
export { jsonSyntaxProblem } from "./json-syntax.js";
/** How big (characters of text) and how deep (levels of arrays and objects) a configuration may be. */
export { MAX_CONFIG_CHARACTERS, MAX_CONFIG_DEPTH } from "./config-limits.js";
/** The log rule patterns a configuration may write, and their matchers. */
export { compileLogPattern, logPatternProblem } from "./log-pattern.js";
/** Go-style durations ("10s", "1m30s") in milliseconds; a process entry's stop signal by any of its spellings. */
export { parseDuration } from "./duration.js";
export { stopSignalNamed } from "./processes.js";
