// npm run firmware: builds svc-mcu's firmware with the Moddable SDK (targets/mcu/manifest.json).
// Usage: npm run firmware -- --platform lin|pico/pico_w [--out DIR] [--instrument] [key=value ...]
//   lin            Moddable's host simulator: OUT/bin/lin/mc/release/mcu/mc.so, run in mcsim
//   pico/pico_w    the Raspberry Pi Pico W: OUT/bin/pico/pico_w/release/mcu/xs_pico.uf2 (and the
//                  .elf beside it), checked to fit its flash less the configuration's partition
//   --out DIR      where the build goes (default dist/firmware/<platform>); make decides by file
//                  dates, so keep one folder per platform
//   --instrument   Moddable's instrumented build (heap, chunks, stack printed every second)
//   key=value      handed to mcconfig as build configuration: ssid=... password=...,
//                  allowInsecureCreds=true, svcPort=8080, svcFileRoot=/path/ (lin: default OUT/files/)
// The bundle (dist/mcu/svc-mcu.js) is rebuilt first. $MODDABLE and, for the Pico, $PICO_SDK_PATH
// must point at the SDKs as docs/mcu.md sets them up; nothing of either is kept in this repository.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildTargetBundle } from "../build/target-bundle.mjs";
import { flashUse } from "./flash-budget.mjs";
import { toolchainFor, ToolchainError } from "./toolchain.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const manifestDir = join(root, "targets/mcu");
const platforms = ["lin", "pico/pico_w"];

const fail = (line) => {
  console.error(`firmware: ${line}`);
  process.exit(2);
};

function parseArgs(args) {
  const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const platform = option("--platform");
  if (!platform) fail(`--platform is required: one of ${platforms.join(", ")}`);
  if (!platforms.includes(platform)) fail(`--platform ${platform} is not one of ${platforms.join(", ")}`);
  const out = resolve(option("--out") ?? join(root, "dist/firmware", platform.replace("/", "-")));
  const settings = args.filter((a) => /^[A-Za-z][A-Za-z0-9_]*=/.test(a));
  return { platform, out, settings, instrument: args.includes("--instrument") };
}

function run(command, args, env, cwd) {
  const result = spawnSync(command, args, { env, cwd, stdio: "inherit" });
  if (result.error) fail(`${command} could not run: ${result.error.message}`);
  if (result.status !== 0) fail(`${command} ${args.join(" ")} failed (exit ${result.status})`);
}

async function buildLin({ out, settings, instrument }, env) {
  const files = join(out, "files");
  mkdirSync(files, { recursive: true });
  const withRoot = settings.some((s) => s.startsWith("svcFileRoot=")) ? settings : [...settings, `svcFileRoot=${files}/`];
  run("mcconfig", ["-m", ...(instrument ? ["-i"] : []), "-p", "lin", "-o", out, "manifest.json", ...withRoot], env, manifestDir);
  const so = join(out, "bin/lin/mc", instrument ? "instrument" : "release", "mcu/mc.so");
  if (!existsSync(so)) fail(`the build ended without ${so}`);
  console.log(`firmware: ${so}`);
  console.log(`firmware: run it with Xvfb and DISPLAY set: ${join(env.MODDABLE, "build/bin/lin/release/mcsim")} ${so}`);
}

async function buildPico({ out, settings, instrument }, env) {
  run("mcconfig", [...(instrument ? ["-i"] : []), "-p", "pico/pico_w", "-o", out, "manifest.json", ...settings], env, manifestDir);
  const kind = instrument ? "instrument" : "release";
  const makefile = join(out, "tmp/pico/pico_w", kind, "mcu/makefile");
  if (!existsSync(makefile)) fail(`mcconfig wrote no ${makefile}`);
  // `build`, not the default target (which waits for a Pico in BOOTSEL mode); bash, not dash.
  run("make", ["-f", makefile, "SHELL=/bin/bash", "-j2", "build"], env, manifestDir);
  const bin = join(out, "bin/pico/pico_w", kind, "mcu");
  const uf2 = join(bin, "xs_pico.uf2");
  const elf = join(bin, "xs_pico.elf");
  if (!existsSync(uf2) || !existsSync(elf)) fail(`the build ended without ${uf2} and ${elf}`);
  const use = flashUse(elf);
  console.log(`firmware: ${uf2}`);
  console.log(`firmware: flash image ${use.image} bytes of ${use.budget} (text ${use.text}, data ${use.data}, bss ${use.bss})`);
  if (!use.fits) fail(`the image is ${use.image - use.budget} bytes over the flash left beside the configuration's partition`);
}

const options = parseArgs(process.argv.slice(2));
let toolchain;
try {
  toolchain = toolchainFor(options.platform);
} catch (error) {
  if (error instanceof ToolchainError) fail(error.message);
  throw error;
}
await buildTargetBundle({ write: true, firmware: true });
mkdirSync(options.out, { recursive: true });
await (options.platform === "lin" ? buildLin : buildPico)(options, toolchain.env);
