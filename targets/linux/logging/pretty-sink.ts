// The terminal sink: one readable line per entry (see pretty-format.ts).
import type { LogSink } from "../../../core/index.js";
import { formatPrettyLine } from "./pretty-format.js";
import type { TextStream } from "./text-stream.js";

export function createPrettySink(stream: TextStream, options: { colour?: boolean } = {}): LogSink {
  const colour = options.colour === true;
  return {
    write(entry) {
      stream.write(formatPrettyLine(entry, colour));
    },
  };
}
