// The module's end of the pipe svc-server holds open on SVC_MODULE_PARENT_FD. It ends the module
// when svc-server is gone, however it went (SIGKILL included): the pipe closes, and, as a second
// signal, the parent PID changes. Over the same pipe the module says it follows level changes
// and svc-server sends each new level, so a running module takes `debug` and its `log_level`
// at once.
import { Socket } from "node:net";
import type { LogLevel } from "../../../core/index.js";
import { createParentChannel, FOLLOWS_LOG_LEVEL } from "../modules/index.js";

const PPID_POLL_MS = 1000;

export interface ParentWatchOptions {
  /** svc-server is gone, or the pipe failed. */
  gone(why: string): void;
  /** svc-server sent a new level. */
  logLevel(level: LogLevel): void;
}

export function watchParent(parentFd: number | undefined, options: ParentWatchOptions): () => void {
  let done = false;
  const fire = (why: string) => {
    if (done) return;
    done = true;
    options.gone(why);
  };
  let pipe: Socket | undefined;
  if (parentFd !== undefined) {
    try {
      pipe = new Socket({ fd: parentFd, readable: true, writable: true });
      pipe.on("end", () => fire("the parent's pipe closed"));
      pipe.on("close", () => fire("the parent's pipe closed"));
      pipe.on("error", () => fire("the parent's pipe failed"));
      const channel = createParentChannel(pipe, (message) => {
        if ("log_level" in message) options.logLevel(message.log_level);
      });
      channel.send({ follows: [FOLLOWS_LOG_LEVEL] });
      pipe.unref();
    } catch {
      pipe = undefined;
    }
  }
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) fire(`the parent process ${parent} is gone`);
  }, PPID_POLL_MS);
  timer.unref();
  return () => {
    done = true;
    clearInterval(timer);
    pipe?.destroy();
  };
}
