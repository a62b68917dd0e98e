// Builds the MCU target's bundle the way dist/mcu/core.mjs is built (platform neutral, ES2020,
// minified, failing on any Node builtin): into dist/mcu/svc-mcu.mjs (and svc-mcu.js, the module
// targets/mcu/manifest.json gives mcconfig), or in memory for the shim, so concurrent tests never
// read a half-written file.
import { build } from "esbuild";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { mcuTargetBundle, mcuTargetEntry } from "./entries.mjs";
import { neutralBundleOptions } from "./neutral-guard.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The bundle's code; written to dist/mcu/svc-mcu.mjs as well when `write` is set (and svc-mcu.js with `firmware`). */
export async function buildTargetBundle({ write = false, firmware = false } = {}) {
  const result = await build({
    ...neutralBundleOptions(root),
    entryPoints: [mcuTargetEntry],
    write: false,
    logLevel: "error",
  });
  const code = result.outputFiles[0].text;
  if (write) {
    const out = join(root, mcuTargetBundle);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, code);
    if (firmware) writeFileSync(out.replace(/\.mjs$/, ".js"), code);
  }
  return code;
}
