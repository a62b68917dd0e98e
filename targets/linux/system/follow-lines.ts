// A child process's output, line by line, with a bound: a program writing megabytes without a
// newline never piles them up in the server. Shared by modules and configured processes.
import type { Readable } from "node:stream";

/** The longest line taken from a child's output (64 KiB); the rest of a longer one is dropped. */
export const MAX_OUTPUT_LINE_BYTES = 64 * 1024;

/**
 * Calls `onLine` with each line of `input` (without "\n" or "\r\n"). A line longer than
 * `maxBytes` is handed on at `maxBytes`; the rest of it is dropped, and `onDropped` told how
 * many bytes when the line ends. At most `maxBytes` of a line are ever held.
 */
export function followLines(input: Readable, maxBytes: number, onLine: (line: string) => void, onDropped: (bytes: number) => void): void {
  let parts: Buffer[] = [];
  let held = 0;
  let dropping = -1;
  const emit = () => {
    let line = Buffer.concat(parts, held).toString("utf8");
    if (line.endsWith("\r")) line = line.slice(0, -1);
    parts = [];
    held = 0;
    onLine(line);
  };
  input.on("data", (chunk: Buffer) => {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      const end = newline < 0 ? chunk.length : newline;
      if (dropping >= 0) {
        dropping += end - start;
      } else {
        const room = maxBytes - held;
        if (end - start <= room) {
          parts.push(chunk.subarray(start, end));
          held += end - start;
        } else {
          parts.push(chunk.subarray(start, start + room));
          held += room;
          emit();
          dropping = end - start - room;
        }
      }
      if (newline < 0) break;
      if (dropping >= 0) {
        onDropped(dropping);
        dropping = -1;
      } else {
        emit();
      }
      start = newline + 1;
    }
  });
  input.on("end", () => {
    if (dropping >= 0) onDropped(dropping);
    else if (held > 0) emit();
  });
}
