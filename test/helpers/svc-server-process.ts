// Starts the real svc-server (dist/linux/svc-server.mjs) as a child process on loopback, with a
// configuration file in a temporary folder, and stops it by its PID. Tests and benchmarks use it.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { distLinux } from "./run-cli.js";

export interface SvcServerProcess {
  /** "http://127.0.0.1:PORT" (or https). */
  readonly url: string;
  /** "localhost:PORT": the SDK's dial wants a host containing "local". */
  readonly sdkHost: string;
  readonly configFile: string;
  readonly child: ChildProcess;
  /** What the server wrote so far. */
  stdout(): string;
  stderr(): string;
  /** Replaces the configuration file's contents (the server follows it). */
  writeConfig(config: unknown): void;
  /** SIGTERM, then waits for the exit; resolves with the exit code. The configuration's folder is removed once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface StartOptions {
  args?: string[];
  env?: Record<string, string>;
  /** How long to wait for "serving ..." on stderr. Default 20 s. */
  startTimeoutMs?: number;
  /** The configuration file's text as it is (`${NAME}` references and all), instead of `config`; it sets its own bind address. */
  configText?: string;
  /** Run it inside this network namespace (`ip netns exec`, which keeps the PID). */
  netns?: string;
  /** Let it advertise over mDNS; otherwise it runs with -disable-mdns, so no test speaks on the host's network. */
  mdns?: boolean;
}

export async function startSvcServer(config: Record<string, unknown>, options: StartOptions = {}): Promise<SvcServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), "svc-server-"));
  const configFile = join(dir, "machine.json");
  const network = { bind_address: "localhost:0", ...(config.network as object | undefined) };
  writeFileSync(configFile, options.configText ?? JSON.stringify({ ...config, network }));
  // Its diagnostics (FTDC) go in its own folder too, unless the test says where or turns them off.
  const ftdc = (options.args ?? []).some((arg) => /^--?ftdc(-dir)?(=|$)/.test(arg)) ? [] : ["-ftdc-dir", join(dir, "diagnostics.data")];
  const command = [process.execPath, join(distLinux, "svc-server.mjs"), "-config", configFile, ...(options.mdns ? [] : ["-disable-mdns"]), ...ftdc, ...(options.args ?? [])];
  const [program, ...argv] = options.netns ? ["ip", "netns", "exec", options.netns, ...command] : command;
  const child = spawn(program!, argv, {
    stdio: ["ignore", "pipe", "pipe"],
    // Its own temporary folder, so whatever the server makes there (module sockets) goes with it.
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root", TMPDIR: dir, ...options.env },
  });
  let out = "";
  let err = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  // The folder holds the configuration file and the server's temporary files; it goes with the process.
  void exited.then(() => rmSync(dir, { recursive: true, force: true }));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`svc-server did not start serving in time; stderr:\n${err}`));
    }, options.startTimeoutMs ?? 20_000);
    const look = () => {
      const match = /serving (https?:\/\/[^\s]+)/.exec(err);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stderr!.on("data", look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`svc-server exited with ${code} before serving; stderr:\n${err}`));
    });
  });
  const port = new URL(url).port;

  return {
    url,
    sdkHost: `${url.startsWith("https") ? "https" : "http"}://localhost:${port}`,
    configFile,
    child,
    stdout: () => out,
    stderr: () => err,
    writeConfig(next) {
      const nextConfig = next as Record<string, unknown>;
      const nextNetwork = { bind_address: "localhost:0", ...(nextConfig.network as object | undefined) };
      writeFileSync(configFile, typeof next === "string" ? next : JSON.stringify({ ...nextConfig, network: nextNetwork }));
    },
    async stop(signal = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
}
