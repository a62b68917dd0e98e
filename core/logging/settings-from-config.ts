// The logging part of a machine configuration, as the log engine takes it.
import type { MachineConfig } from "../config/types.js";
import type { LoggingSettings } from "./level-plan.js";

export function loggingSettingsOf(config: MachineConfig): LoggingSettings {
  return {
    rules: config.log,
    debug: config.debug,
    disableDeduplication: config.disable_log_deduplication,
    resources: [...config.components, ...config.services],
    globalLevels: config.global_log_configuration,
    modules: config.modules,
  };
}
