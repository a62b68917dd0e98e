// Signals on a real child process: the first SIGINT or SIGTERM shuts down in order and exits 0;
// a failed shutdown exits 1; a shutdown stuck past the deadline exits 1; a second signal exits
// at once with 128 + its number.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleShutdownSignals } from "../../../targets/linux/server/system/index.js";

const dir = mkdtempSync(join(tmpdir(), "svc-signals-"));
const child = join(dir, "shutdown-child.mjs");

beforeAll(async () => {
  await build({
    entryPoints: [join(import.meta.dirname, "fixtures", "shutdown-child.ts")],
    outfile: child,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    logLevel: "error",
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  /** Resolves when the child has printed a line containing `text`. */
  printed(text: string): Promise<void>;
  signal(name: NodeJS.Signals): void;
  exit: Promise<{ code: number | null; lines: string[] }>;
}

function run(mode: string, deadlineMs = 30_000): Run {
  const proc = spawn(process.execPath, [child, mode, String(deadlineMs)], { stdio: ["ignore", "pipe", "inherit"] });
  const lines: string[] = [];
  const waiting: Array<{ text: string; resolve: () => void }> = [];
  let buffered = "";
  proc.stdout.setEncoding("utf8");
  proc.stdout.on("data", (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split("\n");
    buffered = parts.pop()!;
    lines.push(...parts);
    for (const wait of [...waiting]) {
      if (lines.some((line) => line.includes(wait.text))) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve();
      }
    }
  });
  const exit = new Promise<{ code: number | null; lines: string[] }>((resolve) =>
    proc.on("exit", (code) => resolve({ code, lines })),
  );
  // Never leave a child behind, whatever the test does.
  const guard = setTimeout(() => proc.kill("SIGKILL"), 30_000);
  void exit.then(() => clearTimeout(guard));
  return {
    printed: (text) =>
      lines.some((line) => line.includes(text)) ? Promise.resolve() : new Promise((resolve) => waiting.push({ text, resolve })),
    signal: (name) => proc.kill(name),
    exit,
  };
}

describe("handleShutdownSignals", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`the first ${signal} shuts down in order and exits 0`, async () => {
      const child = run("graceful");
      await child.printed("ready");
      child.signal(signal);
      const { code, lines } = await child.exit;
      expect(code).toBe(0);
      expect(lines).toEqual([
        "ready",
        `log: received ${signal}: shutting down (a second signal forces the exit)`,
        `shutdown: received ${signal}`,
        "closed",
      ]);
    });
  }

  it("a failed shutdown exits 1 and says why", async () => {
    const child = run("fail");
    await child.printed("ready");
    child.signal("SIGTERM");
    const { code, lines } = await child.exit;
    expect(code).toBe(1);
    expect(lines.at(-1)).toBe("log: shutdown failed: a board would not close");
  });

  it("a second SIGINT during a stuck shutdown exits 130 at once", async () => {
    const child = run("hang");
    await child.printed("ready");
    child.signal("SIGINT");
    await child.printed("shutdown: received SIGINT");
    child.signal("SIGINT");
    const { code, lines } = await child.exit;
    expect(code).toBe(130);
    expect(lines.at(-1)).toBe("log: received SIGINT again: exiting now");
  });

  it("a SIGTERM after a SIGINT exits 143", async () => {
    const child = run("hang");
    await child.printed("ready");
    child.signal("SIGINT");
    await child.printed("shutdown: received SIGINT");
    child.signal("SIGTERM");
    expect((await child.exit).code).toBe(143);
  });

  it("a shutdown stuck past the deadline exits 1", async () => {
    const child = run("hang", 300);
    await child.printed("ready");
    child.signal("SIGTERM");
    const { code, lines } = await child.exit;
    expect(code).toBe(1);
    expect(lines.at(-1)).toBe("log: shutdown not finished after 300 ms: forcing the exit");
  });
});

describe("a shutdown begun without a signal", () => {
  it("runs once, exits 0, and a signal afterwards forces the exit", async () => {
    const exits: number[] = [];
    const reasons: string[] = [];
    let finish = () => {};
    const signals = handleShutdownSignals({
      signals: ["SIGUSR2"],
      exit: (code) => exits.push(code),
      log: () => {},
      onShutdown: (reason) => {
        reasons.push(reason);
        return new Promise<void>((resolve) => (finish = resolve));
      },
    });
    try {
      signals.begin("shutdown requested by a client");
      signals.begin("shutdown requested again");
      process.kill(process.pid, "SIGUSR2");
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(exits).toEqual([140]);
      finish();
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(exits).toEqual([140]);
      expect(reasons).toEqual(["shutdown requested by a client"]);
    } finally {
      signals.dispose();
    }
  });
});
