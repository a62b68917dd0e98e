// Public face of config-watch: following the configuration file through every way of saving it.
export { watchConfigFile } from "./watch-config-file.js";
export type { ConfigWatcher, ConfigWatchOptions, ConfigWatchProblem } from "./watch-config-file.js";
export { configFileSource, type ConfigFileSourceOptions } from "./config-file-source.js";
