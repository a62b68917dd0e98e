// Log levels are written in any case ("Debug" is what existing configurations use); they are
// lowered before validation, so the schema and everything after it see only lower case. A
// level that is not one of the four stays as written, for the schema to report.
import type { LogLevel } from "./types.js";
import { isRecord } from "./data-path.js";

const levels: readonly string[] = ["debug", "info", "warn", "error"] satisfies LogLevel[];

export function lowerCaseLevels(data: Record<string, unknown>): void {
  for (const list of ["components", "services"]) {
    for (const entry of arrayAt(data, list)) {
      if (isRecord(entry) && isRecord(entry.log_configuration)) lowerKey(entry.log_configuration, "level");
    }
  }
  for (const entry of arrayAt(data, "modules")) if (isRecord(entry)) lowerKey(entry, "log_level");
  for (const list of ["log", "global_log_configuration"]) {
    for (const entry of arrayAt(data, list)) if (isRecord(entry)) lowerKey(entry, "level");
  }
}

function arrayAt(data: Record<string, unknown>, key: string): unknown[] {
  const value = data[key];
  return Array.isArray(value) ? value : [];
}

function lowerKey(object: Record<string, unknown>, key: string): void {
  const value = object[key];
  if (typeof value === "string" && levels.includes(value.toLowerCase())) object[key] = value.toLowerCase();
}
