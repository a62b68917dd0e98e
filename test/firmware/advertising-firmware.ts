// The host build with the device's mDNS responder in it, for tests in a network namespace. The
// product's lin build maps rpc-mdns-none (Moddable 8.2.3's lin sockets refuse every multicast
// address); this one is built from targets/mcu/manifest.json read at test time, with the lin
// platform given device/rpc-mdns.js as esp32 and pico are, and comes with lin-multicast.c compiled
// for LD_PRELOAD, which corrects the SDK's reading of inet_pton inside the firmware. Everything
// else (main.js, the bundle, Moddable's responder, its native DNS parser, its lin sockets and
// Net.get) is what the firmware runs.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildTargetBundle } from "../../tools/build/target-bundle.mjs";
import { moddableHome, root } from "./mcsim-host.js";

const MANIFEST_DIR = join(root, "targets/mcu");

export interface AdvertisingFirmware {
  /** The app mcsim loads. */
  readonly so: string;
  /** The library to preload into mcsim (lin-multicast.c, compiled). */
  readonly preload: string;
}

/** Paths in the product manifest ("./device/main", "../../dist/mcu/svc-mcu") made absolute. */
function absolute(value: unknown): unknown {
  if (typeof value === "string") return /^\.\.?\//.test(value) ? join(MANIFEST_DIR, value) : value;
  if (Array.isArray(value)) return value.map(absolute);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, absolute(item)]));
  return value;
}

/** The product manifest with lin mapping rpc-mdns to the device's responder. */
export function advertisingManifest(): Record<string, any> {
  const manifest = absolute(JSON.parse(readFileSync(join(MANIFEST_DIR, "manifest.json"), "utf8"))) as Record<string, any>;
  const devices = manifest.platforms["esp32/*"].modules["rpc-mdns"];
  if (devices !== join(MANIFEST_DIR, "device/rpc-mdns")) throw new Error(`esp32 maps rpc-mdns to ${devices}, not device/rpc-mdns`);
  manifest.platforms.lin.modules["rpc-mdns"] = devices;
  return manifest;
}

function run(program: string, args: string[], cwd: string, path = process.env.PATH): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd, env: { ...process.env, PATH: path } });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", (error) => reject(new Error(`${program} could not run: ${error.message}`)));
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${program} ${args.join(" ")} failed (${code}):\n${output.slice(-4000)}`))));
  });
}

/** Builds into `dir` (a folder of its own under $TMPDIR); `settings` go to mcconfig (`svcPort=...`). */
export async function buildAdvertisingFirmware(dir: string, settings: string[]): Promise<AdvertisingFirmware> {
  const bin = join(moddableHome(), "build/bin/lin/release");
  // mcconfig names the app after its manifest's folder.
  const project = join(dir, "mcu");
  const out = join(dir, "build");
  mkdirSync(project, { recursive: true });
  mkdirSync(join(out, "files"), { recursive: true });
  writeFileSync(join(project, "manifest.json"), JSON.stringify(advertisingManifest(), null, 2));
  await buildTargetBundle({ write: true, firmware: true });
  await run(join(bin, "mcconfig"), ["-m", "-p", "lin", "-o", out, "manifest.json", `svcFileRoot=${out}/files/`, ...settings], project, `${bin}:${process.env.PATH}`);
  const preload = join(dir, "lin-multicast.so");
  await run("cc", ["-shared", "-fPIC", "-O2", "-o", preload, join(import.meta.dirname, "lin-multicast.c"), "-ldl"], dir);
  return { so: join(out, "bin/lin/mc/release/mcu/mc.so"), preload };
}
