// The host build of svc-mcu running for real: `npm run firmware -- --platform lin` builds it with
// the Moddable SDK into a folder under $TMPDIR, and Moddable's simulator (mcsim, a GTK app) runs
// it under an Xvfb display of its own. mcsim copies the app into $HOME/.config, so HOME is a
// folder under $TMPDIR too. Every line mcsim prints is kept; instrumented builds print their
// figures ("instruments: ...") each second and `peaks` holds the highest seen of each.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

export const root = join(import.meta.dirname, "..", "..");

/** $MODDABLE, required: a firmware test without the SDK fails, naming it. */
export function moddableHome(): string {
  const home = process.env.MODDABLE;
  if (!home || !existsSync(join(home, "build/bin/lin/release/mcsim"))) {
    throw new Error("$MODDABLE must name a Moddable SDK 8.2.3 with its host tools built (docs/mcu.md, Building firmware)");
  }
  return home;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The commands docs/mcu.md gives, run as written (with the tests' own folder and settings after them). */
export const FIRMWARE_COMMANDS = {
  lin: "npm run firmware -- --platform lin",
  picoW: "npm run firmware -- --platform pico/pico_w",
} as const;

const quoted = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

/** Runs one of FIRMWARE_COMMANDS with more arguments; resolves to its output, rejects with it. */
export function buildFirmware(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", `${command} ${args.map(quoted).join(" ")}`], { cwd: root, env: process.env });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("exit", (code) => (code === 0 ? resolve(output) : reject(new Error(`firmware build failed (${code}):\n${output.slice(-4000)}`))));
  });
}

/** Builds the host firmware (FIRMWARE_COMMANDS.lin) with more arguments; resolves to the mc.so mcsim runs. */
export async function buildHostFirmware(args: string[]): Promise<string> {
  const output = await buildFirmware(FIRMWARE_COMMANDS.lin, args);
  const so = /firmware: (\S+mc\.so)/.exec(output)?.[1];
  if (!so) throw new Error(`the firmware build did not say where mc.so is:\n${output.slice(-4000)}`);
  return so;
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  return gone;
}

export interface Display {
  readonly name: string;
  close(): Promise<void>;
}

/** An Xvfb display of its own (no lock file; its socket goes when it ends). */
export async function startXvfb(): Promise<Display> {
  for (let n = 200 + (process.pid % 500); ; n++) {
    if (existsSync(`/tmp/.X11-unix/X${n}`)) continue;
    const child = spawn("Xvfb", [`:${n}`, "-nolock", "-nolisten", "tcp", "-screen", "0", "640x480x24"], { stdio: "ignore" });
    const ready = await new Promise<boolean>((resolve) => {
      child.once("exit", () => resolve(false));
      child.once("error", () => resolve(false));
      const poll = setInterval(() => {
        if (existsSync(`/tmp/.X11-unix/X${n}`)) {
          clearInterval(poll);
          resolve(true);
        }
      }, 50);
      child.once("exit", () => clearInterval(poll));
    });
    if (ready) return { name: `:${n}`, close: () => stopped(child) };
    if (child.exitCode === null && child.signalCode === null) await stopped(child);
    if (n > 1200) throw new Error("no free X display for Xvfb");
  }
}

export interface Mcsim {
  readonly pid: number;
  readonly lines: string[];
  /** The highest of each instrument seen since the last `resetPeaks`. */
  readonly peaks: Record<string, number>;
  resetPeaks(): void;
  /** Resolves with the first line (seen already or to come) matching. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

/** Where mcsim runs: a network namespace of its own, and a library preloaded into it (LD_PRELOAD). */
export interface McsimPlace {
  readonly netns?: string;
  readonly preload?: string;
}

export function startMcsim(so: string, display: Display, home: string, place: McsimPlace = {}): Mcsim {
  mkdirSync(join(home, ".config"), { recursive: true });
  const mcsim = join(moddableHome(), "build/bin/lin/release/mcsim");
  const command = ["stdbuf", "-o0", mcsim, so];
  if (place.netns) command.unshift("ip", "netns", "exec", place.netns);
  const env = { ...process.env, DISPLAY: display.name, HOME: home, ...(place.preload ? { LD_PRELOAD: place.preload } : {}) };
  const child = spawn(command[0]!, command.slice(1), { env, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  let peaks: Record<string, number> = {};
  let keys: string[] = [];
  const waiting = new Set<{ pattern: RegExp; resolve: (line: string) => void }>();
  let partial = "";
  const take = (chunk: Buffer) => {
    partial += chunk.toString();
    for (let at = partial.indexOf("\n"); at >= 0; at = partial.indexOf("\n")) {
      const line = partial.slice(0, at);
      partial = partial.slice(at + 1);
      if (line.startsWith("instruments key: ")) keys = line.slice(17).split(",");
      else if (line.startsWith("instruments: ")) {
        line.slice(13).split(",").forEach((v, i) => (peaks[keys[i] ?? i] = Math.max(peaks[keys[i] ?? i] ?? 0, Number(v))));
      } else lines.push(line);
      for (const w of waiting) if (w.pattern.test(line)) (waiting.delete(w), w.resolve(line));
    }
  };
  child.stdout.on("data", take);
  child.stderr.on("data", take);
  child.on("exit", (code, signal) => lines.push(`mcsim exited (code ${code}, signal ${signal})`));
  return {
    pid: child.pid ?? 0,
    lines,
    get peaks() {
      return peaks;
    },
    resetPeaks: () => (peaks = {}),
    waitFor(pattern, timeoutMs = 30_000) {
      const seen = lines.find((l) => pattern.test(l));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`mcsim never printed ${pattern}; it printed:\n${lines.join("\n")}`)), timeoutMs);
        waiting.add({ pattern, resolve: (line) => (clearTimeout(timer), resolve(line)) });
      });
    },
    close: () => stopped(child),
  };
}
