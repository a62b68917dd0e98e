// Starts the simulated NetworkManager for a test: a private system-type bus and, on it, the
// simulation in its own Node process (bundled from sim-process.ts), so that clients meet it
// exactly as they meet the real daemon: another peer on the bus that owns
// org.freedesktop.NetworkManager and can vanish (kill() it). The test changes the world and reads
// what was asked of NetworkManager through `control`.
import { build } from "esbuild";
import { fork } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startPrivateSystemBus } from "./private-system-bus.js";
import type { ConnectivityName, ControlMessage, ControlRequest, SimAccessPoint, SimEvent, SimSnapshot, SimWorld } from "./sim-types.js";

export interface StartSimOptions extends SimWorld {
  /** Folder for the bus socket and the bundled simulation; default a new temporary folder, removed on stop. */
  dir?: string;
}

export interface SimControl {
  addAccessPoint(accessPoint: SimAccessPoint): Promise<void>;
  /** Out of range: the access point leaves scan results; a connection to it drops after the link timeout. */
  setInRange(ssid: string, inRange: boolean): Promise<void>;
  setStrength(ssid: string, strength: number): Promise<void>;
  /** What the connectivity check (Connectivity, CheckConnectivity) finds with a client connection up. */
  setInternet(connectivity: ConnectivityName): Promise<void>;
  snapshot(): Promise<SimSnapshot>;
  /** Everything recorded so far: calls received, device and active-connection states, connectivity, access points. */
  events(): SimEvent[];
  clearEvents(): void;
  /** Resolves with the first recorded event (past or future) that matches. */
  waitForEvent(match: (event: SimEvent) => boolean, what: string, timeoutMs?: number): Promise<SimEvent>;
}

export interface SimNetworkManager {
  busAddress: string;
  control: SimControl;
  /** The simulation's process. */
  pid: number;
  /** Kills the simulation at once (NetworkManager disappears from the bus); the bus stays. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

const here = fileURLToPath(new URL(".", import.meta.url));

/** The simulation's own process, bundled into `dir`: it runs as a plain Node child. */
async function bundleSimProcess(dir: string): Promise<string> {
  const bundle = join(dir, "sim-network-manager.cjs");
  await build({
    entryPoints: [join(here, "sim-process.ts")],
    outfile: bundle,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    external: ["x11", "usocket"],
    logLevel: "error",
  });
  return bundle;
}

export async function startSimNetworkManager(options: StartSimOptions = {}): Promise<SimNetworkManager> {
  const { dir: given, ...world } = options;
  const dir = given ?? mkdtempSync(join(tmpdir(), "svc-sim-nm-"));
  mkdirSync(dir, { recursive: true });
  const bundle = await bundleSimProcess(dir);
  const bus = await startPrivateSystemBus(dir);
  const child = fork(bundle, [], {
    stdio: ["ignore", "ignore", "pipe", "ipc"],
    env: { PATH: process.env.PATH ?? "", TMPDIR: tmpdir(), SVC_SIM_NM_BUS: bus.address, SVC_SIM_NM_WORLD: JSON.stringify(world) },
  });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const events: SimEvent[] = [];
  const watchers = new Set<(event: SimEvent) => void>();
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let ready: () => void = () => {};
  const isReady = new Promise<void>((resolve) => (ready = resolve));

  child.on("message", (message: ControlMessage) => {
    if (message.type === "ready") ready();
    else if (message.type === "event") {
      events.push(message.event);
      for (const watch of watchers) watch(message.event);
    } else {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.ok) waiting?.resolve(message.value);
      else waiting?.reject(new Error(message.error));
    }
  });
  void exited.then(() => {
    for (const waiting of pending.values()) waiting.reject(new Error(`the simulated NetworkManager exited: ${stderr}`));
    pending.clear();
  });

  const stopAll = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    await bus.stop();
    if (!given) rmSync(dir, { recursive: true, force: true });
  };

  try {
    await Promise.race([
      isReady,
      exited.then(() => Promise.reject(new Error(`the simulated NetworkManager did not start: ${stderr}`))),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`the simulated NetworkManager did not start in time: ${stderr}`)), 20_000)),
    ]);
  } catch (error) {
    await stopAll();
    throw error;
  }

  const request = (body: ControlRequest) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.send({ id, request: body });
    });

  const control: SimControl = {
    addAccessPoint: async (accessPoint) => void (await request({ op: "addAccessPoint", accessPoint })),
    setInRange: async (ssid, inRange) => void (await request({ op: "setInRange", ssid, inRange })),
    setStrength: async (ssid, strength) => void (await request({ op: "setStrength", ssid, strength })),
    setInternet: async (internet) => void (await request({ op: "setInternet", internet })),
    snapshot: async () => (await request({ op: "snapshot" })) as SimSnapshot,
    events: () => [...events],
    clearEvents: () => void events.splice(0),
    waitForEvent(match, what, timeoutMs = 20_000) {
      const seen = events.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          watchers.delete(watch);
          reject(new Error(`gave up waiting for ${what}`));
        }, timeoutMs);
        const watch = (event: SimEvent) => {
          if (!match(event)) return;
          clearTimeout(timer);
          watchers.delete(watch);
          resolve(event);
        };
        watchers.add(watch);
      });
    },
  };

  return {
    busAddress: bus.address,
    control,
    pid: child.pid!,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
    stop: stopAll,
  };
}
