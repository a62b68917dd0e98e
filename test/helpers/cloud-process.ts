// Starts the real svc-cloud (dist/linux/svc-cloud.mjs) on a temporary data folder and a loopback
// port, after `svc-cloud init`, and stops it by its PID. `createMachine` runs the real
// `svc-cloud machine create` against the same folder while the service runs. With `database`, every
// command is given `--database URL` and the state is in that PostgreSQL.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { distLinux } from "./run-cli.js";

const cloudBin = join(distLinux, "svc-cloud.mjs");

export interface InitResult {
  organization_id: string;
  location_id: string;
  api_key: { id: string; key: string };
}

export interface MachineCredentials {
  cloud: { id: string; api_key: { id: string; key: string }; app_address: string };
}

export interface CloudProcess {
  /** "http://localhost:PORT". */
  readonly url: string;
  readonly dataDir: string;
  readonly init: InitResult;
  readonly child: ChildProcess;
  stderr(): string;
  /** Runs `svc-cloud ARGS --data DIR` to its end. */
  run(args: string[]): { status: number | null; stdout: string; stderr: string };
  createMachine(name: string, extra?: string[]): MachineCredentials;
  /** SIGTERM, waits for the exit, removes the data folder it made; resolves with the exit code. */
  stop(): Promise<number | null>;
}

export interface CloudStartOptions {
  email?: string;
  password?: string;
  args?: string[];
  /** Serve this folder, already initialised (its `init` given here), and leave it when stopped. */
  reuse?: { dataDir: string; init: InitResult };
  /** The PostgreSQL (`--database`) every command is given. */
  database?: string;
}

export function runCloud(args: string[], dataDir: string, database?: string): { status: number | null; stdout: string; stderr: string } {
  const store = database === undefined ? [] : ["--database", database];
  const made = spawnSync(process.execPath, [cloudBin, ...args, "--data", dataDir, ...store], { encoding: "utf8", timeout: 60_000 });
  return { status: made.status, stdout: made.stdout, stderr: made.stderr };
}

export async function startCloud(options: CloudStartOptions = {}): Promise<CloudProcess> {
  const dataDir = options.reuse?.dataDir ?? mkdtempSync(join(tmpdir(), "svc-cloud-"));
  const init = options.reuse?.init ?? initialise(dataDir, options);
  const store = options.database === undefined ? [] : ["--database", options.database];
  const child = spawn(process.execPath, [cloudBin, "--data", dataDir, ...store, "--listen", "localhost:0", ...(options.args ?? [])], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root", TMPDIR: dataDir },
  });
  let err = "";
  child.stderr!.on("data", (d) => (err += d));
  child.stdout!.resume();
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  if (options.reuse === undefined) void exited.then(() => rmSync(dataDir, { recursive: true, force: true }));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`svc-cloud did not start serving in time; stderr:\n${err}`));
    }, 30_000);
    child.stderr!.on("data", () => {
      const match = /serving \S+ on (https?:\/\/\S+)/.exec(err);
      if (match === null) return;
      clearTimeout(timer);
      resolve(match[1]!);
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`svc-cloud exited with ${code} before serving; stderr:\n${err}`));
    });
  });
  return {
    url,
    dataDir,
    init,
    child,
    stderr: () => err,
    run: (args) => runCloud(args, dataDir, options.database),
    createMachine(name, extra = []) {
      const made = runCloud(["machine", "create", "--name", name, ...extra], dataDir, options.database);
      if (made.status !== 0) throw new Error(`svc-cloud machine create failed: ${made.stderr}`);
      return JSON.parse(made.stdout) as MachineCredentials;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill("SIGTERM");
      return exited;
    },
  };
}

function initialise(dataDir: string, options: CloudStartOptions): InitResult {
  const owner = options.email === undefined ? [] : ["--email", options.email, "--password", options.password ?? "correct horse battery"];
  const initRun = runCloud(["init", ...owner], dataDir, options.database);
  if (initRun.status !== 0) {
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`svc-cloud init failed: ${initRun.stderr}`);
  }
  return JSON.parse(initRun.stdout) as InitResult;
}
