// Runs a guide's shell blocks as a reader would: `sh -c <block>` in the checkout, with a fresh
// home folder (HOME, and TMPDIR for what the programs write) of the test's own, removed at the
// end, so whatever the guide makes lands there. A block that runs until stopped (a server, the
// agent) is started in a process group of its own and stopped through it.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually } from "./eventually.js";
import { repositoryRoot } from "./guide.js";

export interface GuideHome {
  readonly dir: string;
  /** The environment a block runs in: PATH from the test, the rest the home's own. */
  readonly env: Record<string, string>;
  remove(): void;
}

/** A home folder made on first use (not while a test file is collected), removed by `remove()`. */
export function makeGuideHome(prefix: string): GuideHome {
  let dir: string | undefined;
  const made = () => (dir ??= mkdtempSync(join(tmpdir(), prefix)));
  return {
    get dir() {
      return made();
    },
    get env() {
      // npm's update notice would go to the network on every `npm run`.
      return { PATH: process.env.PATH ?? "", HOME: made(), TMPDIR: made(), npm_config_update_notifier: "false" };
    },
    remove: () => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface BlockResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a block that finishes, in the checkout; `input` is its stdin. */
export function runBlock(text: string, home: GuideHome, options: { input?: string; command?: string[] } = {}): BlockResult {
  const [program, ...args] = options.command ?? ["sh", "-c", text];
  const run = spawnSync(program!, args, {
    cwd: repositoryRoot,
    env: home.env,
    input: options.input,
    encoding: "utf8",
    timeout: 300_000,
  });
  return { code: run.status, stdout: run.stdout ?? "", stderr: run.stderr ?? "" };
}

export interface RunningBlock {
  readonly pid: number;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  readonly exited: Promise<number | null>;
  /** SIGTERM to its process group, and its exit awaited (SIGKILL if it does not come). */
  stop(): Promise<void>;
}

/** Starts a block that runs until stopped. */
export function startBlock(text: string, home: GuideHome): RunningBlock {
  const child = spawn("sh", ["-c", text], { cwd: repositoryRoot, env: home.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (chunk) => (out += chunk));
  child.stderr!.on("data", (chunk) => (out += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const signal = (name: NodeJS.Signals | 0) => {
    try {
      process.kill(-child.pid!, name);
      return true;
    } catch {
      return false; // No process of the group is left.
    }
  };
  const gone = () => (signal(0) ? undefined : true);
  return {
    pid: child.pid!,
    output: () => out,
    exited,
    async stop() {
      // The whole group: the shell may have left the program it started running.
      signal("SIGTERM");
      await eventually(gone, "the block's processes to stop", { timeoutMs: 60_000 }).catch(async () => {
        signal("SIGKILL");
        await eventually(gone, "the block's processes to die");
      });
      await exited;
    },
  };
}
