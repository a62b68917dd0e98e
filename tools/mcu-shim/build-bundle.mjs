// The MCU target's bundle for the shim and the benchmark (tools/build/target-bundle.mjs builds
// it). Run as a command it writes dist/mcu/svc-mcu.mjs and svc-mcu.js.
// Usage: node tools/mcu-shim/build-bundle.mjs
import { fileURLToPath } from "node:url";
import { buildTargetBundle } from "../build/target-bundle.mjs";

export { buildTargetBundle };

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildTargetBundle({ write: true, firmware: true }).catch(() => process.exit(1));
}
