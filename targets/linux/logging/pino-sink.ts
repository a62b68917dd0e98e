// The JSON-lines sink: pino serializes each entry as one line,
//   {"level":"info","time":"2024-05-01T12:00:00.123Z","logger":"svc.networking","iface":"wlan0","msg":"online"}
// Levels are decided by the engine, so pino writes whatever it is handed. Each logger name gets a
// pino child, whose `logger` binding pino serializes once, when the child is created.
import pino, { type Logger as PinoLogger } from "pino";
import type { LogEntry, LogSink } from "../../../core/index.js";
import type { TextStream } from "./text-stream.js";

export interface PinoSink extends LogSink {
  /** Writes out whatever the destination still buffers. */
  flush(): void;
}

export function createPinoSink(destination: TextStream & { flushSync?: () => void }): PinoSink {
  // pino asks for the time when it serializes; the engine's entry carries it. Lines come in bursts
  // within one millisecond, so the formatted time is kept for the next entry.
  let entryTime = 0;
  let formattedFor = Number.NaN;
  let formatted = "";
  const root = pino(
    {
      level: "trace",
      base: null,
      timestamp: () => {
        if (entryTime !== formattedFor) {
          formattedFor = entryTime;
          formatted = `,"time":"${new Date(entryTime).toISOString()}"`;
        }
        return formatted;
      },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination as pino.DestinationStream,
  );
  const children = new Map<string, PinoLogger>();

  return {
    write(entry: LogEntry) {
      let child = children.get(entry.logger);
      if (child === undefined) {
        child = root.child({ logger: entry.logger });
        children.set(entry.logger, child);
      }
      entryTime = entry.time;
      child[entry.level](entry.fields, entry.message);
    },
    flush() {
      destination.flushSync?.();
    },
  };
}
