// Builds every bundle of svc with esbuild:
//   dist/linux/svc-server.mjs, dist/linux/svc-agent.mjs  (Node 20, native addons left external)
//   dist/linux/module-sdk.mjs, dist/modules/*.mjs            (the module SDK, example modules)
//   dist/mcu/svc-mcu.mjs (+ .js for mcconfig)            (the MCU target, neutral and minified)
//   dist/mcu/core.mjs                                     (platform neutral, ES2020, minified, for XS)
//   dist/cloud-web/app.js, app.css, models.json           (svc-cloud's web app, for browsers, minified)
//   dist/server-page/app.js, app.css                      (svc-server's own control page, for browsers, minified)
// Usage: node tools/build/index.mjs [--quiet] [--only linux|mcu] [--version X] [--outdir DIR]
//   --version X   the version svc-server and svc-agent report (default: package.json's)
//   --outdir DIR  write the Linux bundles to DIR/linux and DIR/modules instead of dist/
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { neutralBundleOptions } from "./neutral-guard.mjs";
import { linuxEntries, mcuEntry, moduleEntries, nativeExternals } from "./entries.mjs";
import { buildTargetBundle } from "./target-bundle.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const args = process.argv.slice(2);
const quiet = args.includes("--quiet");
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const only = option("--only");
const version = option("--version");
const outRoot = option("--outdir") ?? "dist";
// SVC_VERSION (targets/linux/version.ts) reads this; without it, package.json's version is used.
const versionDefine = version ? { __SVC_VERSION__: JSON.stringify(version) } : {};

// Bundled CommonJS dependencies (pino) still call require(); give them one.
const requireShim = [
  'import { createRequire as __svcCreateRequire } from "node:module";',
  "const require = __svcCreateRequire(import.meta.url);",
].join("\n");

async function buildLinux() {
  const linuxDir = resolve(root, outRoot, "linux");
  const modulesDir = resolve(root, outRoot, "modules");
  mkdirSync(linuxDir, { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: linuxEntries,
    outdir: linuxDir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    sourcemap: "linked",
    external: nativeExternals,
    define: versionDefine,
    banner: { js: `#!/usr/bin/env node\n${requireShim}` },
    logLevel: quiet ? "error" : "warning",
  });
  // Example modules import `svc/module-sdk`; the "svc-source" condition bundles it from source.
  await build({
    absWorkingDir: root,
    entryPoints: moduleEntries,
    outdir: modulesDir,
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
  for (const name of Object.keys(moduleEntries)) chmodSync(join(modulesDir, `${name}.mjs`), 0o755);
  await buildCloudWeb(resolve(root, outRoot, "cloud-web"));
  await buildServerPage(resolve(root, outRoot, "server-page"));
}

// A web page for browsers: one script (its entry bundled with everything it imports) and one
// style sheet, so the page needs nothing from elsewhere.
async function buildWebPage(entry, css, outdir) {
  await build({
    absWorkingDir: root,
    entryPoints: { app: entry },
    outdir,
    bundle: true,
    platform: "browser",
    target: ["chrome100", "firefox100", "safari15"],
    format: "esm",
    minify: true,
    sourcemap: "linked",
    jsx: "automatic",
    jsxImportSource: "preact",
    logLevel: quiet ? "error" : "warning",
  });
  copyFileSync(join(root, css), join(outdir, "app.css"));
}

// svc-cloud's web app (targets/cloud/web), beside the svc-cloud bundle that serves it.
async function buildCloudWeb(outdir) {
  await buildWebPage("targets/cloud/web/main.tsx", "targets/cloud/web/app.css", outdir);
  // The models the config form offers: svc-server's own, as it lists them.
  execFileSync(process.execPath, [resolve(root, outRoot, "linux/svc-server.mjs"), "-dump-resources", join(outdir, "models.json")], { stdio: "pipe" });
}

// svc-server's own control page (targets/linux/server/page/web), beside the svc-server bundle that
// serves it: the official Viam SDK, the core's validator and the shared components in one script.
async function buildServerPage(outdir) {
  await buildWebPage("targets/linux/server/page/web/main.tsx", "targets/linux/server/page/web/page.css", outdir);
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
  if (!quiet) console.log("build: dist/linux, dist/cloud-web, dist/server-page and dist/mcu written");
} catch {
  // esbuild has already printed the errors with their locations.
  process.exit(1);
}
