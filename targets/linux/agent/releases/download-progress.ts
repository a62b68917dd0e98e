// Shows how far a download is: a bar redrawn in place on a terminal, or, for the journal and the
// log queue, one log line each time another tenth of the file has arrived.
import type { Logger } from "../../../../core/index.js";

export type ProgressMode = "auto" | "bar" | "log" | "off";

export interface ProgressOptions {
  mode: ProgressMode;
  logger: Logger;
  /** What is shown before the figures, such as the file name. */
  label: string;
  /** Where the bar is drawn. Default process.stderr. */
  terminal?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
}

export interface DownloadProgress {
  /** `done` bytes of `total` (undefined when the server did not say). */
  update(done: number, total: number | undefined): void;
  finish(done: number): void;
}

const MB = 1024 * 1024;
// Without a known size, a log line every this many bytes.
const LOG_STEP_UNKNOWN = 16 * MB;

const megabytes = (n: number) => `${(n / MB).toFixed(1)} MB`;

export function createDownloadProgress(options: ProgressOptions): DownloadProgress {
  const terminal = options.terminal ?? process.stderr;
  const mode = options.mode === "auto" ? (terminal.isTTY ? "bar" : "log") : options.mode;
  const { logger, label } = options;
  if (mode === "off") return { update() {}, finish() {} };

  if (mode === "log") {
    let nextStep = -1;
    return {
      update(done, total) {
        const step = total ? Math.floor((done / total) * 10) : Math.floor(done / LOG_STEP_UNKNOWN);
        if (nextStep < 0) nextStep = step + 1; // where a resumed download starts is not news
        if (step < nextStep) return;
        nextStep = step + 1;
        if (total) logger.info(`downloading ${label}: ${step * 10} % (${megabytes(done)} of ${megabytes(total)})`);
        else logger.info(`downloading ${label}: ${megabytes(done)}`);
      },
      finish(done) {
        logger.info(`downloaded ${label} (${megabytes(done)})`);
      },
    };
  }

  let lastDraw = "";
  const draw = (line: string) => {
    if (line === lastDraw) return;
    lastDraw = line;
    terminal.write(`\r${line}\u001b[K`);
  };
  return {
    update(done, total) {
      const width = Math.max(10, Math.min(40, (terminal.columns ?? 80) - label.length - 30));
      if (!total) return draw(`${label} ${megabytes(done)}`);
      const fraction = Math.min(1, done / total);
      const filled = Math.round(fraction * width);
      draw(`${label} [${"#".repeat(filled)}${" ".repeat(width - filled)}] ${Math.floor(fraction * 100)} % ${megabytes(done)}/${megabytes(total)}`);
    },
    finish(done) {
      draw(`${label} ${megabytes(done)} done`);
      terminal.write("\n");
    },
  };
}
