// Ends the module when svc-server is gone, however it went (SIGKILL included): the pipe svc-server
// holds open on SVC_MODULE_PARENT_FD closes, and, as a second signal, the parent PID changes.
import { Socket } from "node:net";

const PPID_POLL_MS = 1000;

export function watchParent(parentFd: number | undefined, gone: (why: string) => void): () => void {
  let done = false;
  const fire = (why: string) => {
    if (done) return;
    done = true;
    gone(why);
  };
  let pipe: Socket | undefined;
  if (parentFd !== undefined) {
    try {
      pipe = new Socket({ fd: parentFd, readable: true, writable: false });
      pipe.on("end", () => fire("the parent's pipe closed"));
      pipe.on("close", () => fire("the parent's pipe closed"));
      pipe.on("error", () => fire("the parent's pipe failed"));
      pipe.resume();
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
