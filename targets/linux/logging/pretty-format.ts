// The terminal layout of a log entry, one line each, tab-separated so columns line up:
//   2024-05-01T12:00:00.123Z  INFO  rdk.resource_manager.rdk:component:motor/left  moving  {"rpm":60}
// Colours only the level, and only when asked (a terminal).
import type { LogEntry } from "../../../core/index.js";

const LABELS = { debug: "DEBUG", info: "INFO", warn: "WARN", error: "ERROR" } as const;
const COLOURS = { debug: "\u001b[90m", info: "\u001b[36m", warn: "\u001b[33m", error: "\u001b[31m" } as const;
const RESET = "\u001b[0m";

export function formatPrettyLine(entry: LogEntry, colour = false): string {
  const label = colour ? `${COLOURS[entry.level]}${LABELS[entry.level]}${RESET}` : LABELS[entry.level];
  let line = `${new Date(entry.time).toISOString()}\t${label}\t${entry.logger}\t${entry.message}`;
  for (const _ in entry.fields) {
    line += `\t${safeJson(entry.fields)}`;
    break;
  }
  return `${line}\n`;
}

function safeJson(fields: object): string {
  try {
    return JSON.stringify(fields, (_key, value: unknown) => {
      if (typeof value === "bigint") return `${value}`;
      if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
      return value;
    });
  } catch {
    return "[fields not serializable]";
  }
}
