// npm run bench: bundles every tools/bench/*.bench.ts and runs each in its own Node process,
// one after another so they do not compete for the two cores. Each prints lines shaped
// `name: value unit (goal: ...)`. Usage: node tools/bench/index.mjs [filter]
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { nativeExternals } from "../build/entries.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const filter = process.argv[2] ?? "";
const benches = readdirSync(join(root, "tools/bench"))
  .filter((f) => f.endsWith(".bench.ts") && f.includes(filter))
  .sort();

await build({
  absWorkingDir: root,
  entryPoints: benches.map((f) => `tools/bench/${f}`),
  outdir: "dist/bench",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  packages: "external",
  external: nativeExternals,
  logLevel: "error",
});

let failed = 0;
for (const file of benches) {
  const out = join(root, "dist/bench", file.replace(/\.ts$/, ".mjs"));
  const run = spawnSync(process.execPath, ["--expose-gc", out], { cwd: root, stdio: "inherit" });
  if (run.status !== 0) {
    failed++;
    console.error(`bench ${file} failed (exit ${run.status ?? run.signal})`);
  }
}
process.exit(failed ? 1 : 0);
