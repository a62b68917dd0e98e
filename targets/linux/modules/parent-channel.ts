// The pipe svc-server holds on a module's fd 3 (SVC_MODULE_PARENT_FD) is a socket pair: besides
// closing when svc-server dies, it carries one JSON object a line each way, so that what the
// module protocol has no call for reaches a running module without restarting it. A module
// written with the SDK says once that it follows level changes (`{"follows":["log_level"]}`);
// svc-server then sends each new level (`{"log_level":"debug"}`). A module that never says so
// learns its level only from `--log-level` when it starts. Unknown lines are ignored both ways.
import type { Duplex } from "node:stream";
import { createInterface } from "node:readline";
import type { LogLevel } from "../../../core/index.js";

export type ParentChannelMessage = { log_level: LogLevel } | { follows: string[] };

/** What a module following level changes says: the word after "follows". */
export const FOLLOWS_LOG_LEVEL = "log_level";

const levels: readonly string[] = ["debug", "info", "warn", "error"];

/** The message of one line, or undefined for a line that is none of ours. */
export function parseParentChannelLine(line: string): ParentChannelMessage | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const { log_level: level, follows } = parsed as Record<string, unknown>;
  if (typeof level === "string" && levels.includes(level)) return { log_level: level as LogLevel };
  if (Array.isArray(follows)) return { follows: follows.filter((f): f is string => typeof f === "string") };
  return undefined;
}

export interface ParentChannel {
  send(message: ParentChannelMessage): void;
}

/** Reads messages from `socket` and writes them to it; write failures are the closing side's to report. */
export function createParentChannel(socket: Duplex, onMessage: (message: ParentChannelMessage) => void): ParentChannel {
  // The other side going away is seen through "close"; a failed write must not throw here.
  socket.on("error", () => {});
  createInterface({ input: socket, crlfDelay: Infinity }).on("line", (line) => {
    const message = parseParentChannelLine(line);
    if (message) onMessage(message);
  });
  return {
    send(message) {
      if (!socket.destroyed && socket.writable) socket.write(`${JSON.stringify(message)}\n`);
    },
  };
}
