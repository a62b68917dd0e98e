// Builds every bundle of svc with esbuild:
//   dist/linux/svc-server.mjs, dist/linux/svc-agent.mjs  (Node 20, native addons left external)
//   dist/linux/module-sdk.mjs, dist/modules/*.mjs            (the module SDK, example modules)
//   dist/mcu/svc-mcu.mjs (+ .js for mcconfig)            (the MCU target, neutral and minified)
//   dist/mcu/core.mjs                                     (platform neutral, ES2020, minified, for XS)
// Usage: node tools/build/index.mjs [--quiet] [--only linux|mcu]
import { build } from "esbuild";
import { chmodSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { neutralBundleOptions } from "./neutral-guard.mjs";
import { linuxEntries, mcuEntry, moduleEntries, nativeExternals } from "./entries.mjs";
import { buildTargetBundle } from "../mcu-shim/build-bundle.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const args = process.argv.slice(2);
const quiet = args.includes("--quiet");
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined;

// Bundled CommonJS dependencies (pino) still call require(); give them one.
const requireShim = [
  'import { createRequire as __svcCreateRequire } from "node:module";',
  "const require = __svcCreateRequire(import.meta.url);",
].join("\n");

async function buildLinux() {
  mkdirSync(join(root, "dist/linux"), { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: linuxEntries,
    outdir: "dist/linux",
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    sourcemap: "linked",
    external: nativeExternals,
    banner: { js: `#!/usr/bin/env node\n${requireShim}` },
    logLevel: quiet ? "error" : "warning",
  });
  // Example modules import `svc/module-sdk`; the "svc-source" condition bundles it from source.
  await build({
    absWorkingDir: root,
    entryPoints: moduleEntries,
    outdir: "dist/modules",
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    conditions: ["svc-source"],
    external: nativeExternals,
    banner: { js: `#!/usr/bin/env node\n${requireShim}` },
    logLevel: quiet ? "error" : "warning",
  });
  for (const name of Object.keys(moduleEntries)) chmodSync(join(root, "dist/modules", `${name}.mjs`), 0o755);
}

async function buildMcu() {
  mkdirSync(join(root, "dist/mcu"), { recursive: true });
  await build({
    ...neutralBundleOptions(root),
    entryPoints: { core: mcuEntry },
    outdir: "dist/mcu",
    outExtension: { ".js": ".mjs" },
    logLevel: quiet ? "error" : "warning",
  });
  // The MCU target itself (dist/mcu/svc-mcu.mjs, and svc-mcu.js for mcconfig), neutral as well.
  await buildTargetBundle({ write: true, firmware: true });
}

try {
  if (!only || only === "linux") await buildLinux();
  if (!only || only === "mcu") await buildMcu();
  if (!quiet) console.log("build: dist/linux and dist/mcu written");
} catch {
  // esbuild has already printed the errors with their locations.
  process.exit(1);
}
