// Two pseudo-terminals joined by socat (`socat pty,raw,echo=0 pty,raw,echo=0`): bytes written to
// one arrive at the other, as on two serial ports wired TX to RX. Started and stopped by PID.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface PtyPair {
  a: string;
  b: string;
  stop(): Promise<void>;
}

export async function startPtyPair(): Promise<PtyPair> {
  const dir = mkdtempSync(join(tmpdir(), "svc-pty-"));
  const a = join(dir, "a");
  const b = join(dir, "b");
  const socat = spawn("socat", ["-d", "-d", `pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`], { stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  const exited = new Promise<void>((resolve) => socat.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`socat did not set up the pty pair: ${log}`)), 10_000);
    socat.once("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`socat cannot start (apt install socat): ${error.message}`));
    });
    socat.stderr.on("data", (chunk: Buffer) => {
      log += chunk.toString();
      // Both links exist once socat starts moving data.
      if (log.includes("starting data transfer loop") && existsSync(a) && existsSync(b)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return {
    a,
    b,
    async stop() {
      if (socat.exitCode === null && socat.pid !== undefined) process.kill(socat.pid, "SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
