// Public face of config-watch: following the configuration file through every way of saving it.
export { MAX_CONFIG_FILE_BYTES, watchConfigFile } from "./watch-config-file.js";
export { readConfigText } from "./read-config-text.js";
export type { ConfigWatcher, ConfigWatchOptions, ConfigWatchProblem } from "./watch-config-file.js";
export { configFileSource, type ConfigFileSourceOptions } from "./config-file-source.js";
