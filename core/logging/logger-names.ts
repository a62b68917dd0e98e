// How loggers are named. Resource loggers keep the reference runtime's naming so that `log` rules
// written for existing configurations (`rdk.resource_manager.rdk:component:motor/*`) keep matching.

export const RESOURCE_LOGGER_PREFIX = "rdk.resource_manager";

/** `rdk.resource_manager.<api>/<name>`, e.g. `rdk.resource_manager.rdk:component:motor/left`. */
export function resourceLoggerName(api: string, name: string): string {
  return `${RESOURCE_LOGGER_PREFIX}.${api}/${name}`;
}

/** A module's logger carries the module's name, so a rule naming the module also covers its lines. */
export function moduleLoggerName(moduleName: string): string {
  return moduleName;
}

/** Where a module's stderr lines are written: a sub-logger of the module's logger. */
export function moduleStderrLoggerName(moduleName: string): string {
  return `${moduleLoggerName(moduleName)}.stderr`;
}
