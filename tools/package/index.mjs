// Builds the release artifacts of svc-server and svc-agent, and the release index listing them.
// Usage: node tools/package/index.mjs [--version X] [--out DIR] [--arch amd64|arm64|all]
//          [--base-url URL] [--only svc-server|agent] [--channel stable|dev] [--quiet]
// Each artifact is a .tar.gz holding, at its top: the entry point (`svc-server` or `svc-agent`, a
// small sh launcher running the system's node), lib/<name>.mjs (the bundle), node_modules/
// with the packages the bundle leaves external, svc-server's control page in server-page/, and svc-release.json, the version manifest
// (`{"product": "svc-server", "version": "1.2.3", "platform": "linux/amd64"}`) svc-agent reads to
// know what an artifact given by URL is without running anything in it. index.json in the out folder gets an entry for
// each artifact (merged with what is there, so one folder can serve several versions) and the
// channel (stable unless --channel dev) is moved to this version.
// An artifact for another arch than this machine's carries native addons built for that arch
// (addon-builds.mjs: prebuilt binaries, or cross-compiled and cached in ~/.cache/svc), and no
// artifact is written holding a .node file of another machine (elf-machine.mjs).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { nativeExternals } from "../build/entries.mjs";
import { addonBuildsFor } from "./addon-builds.mjs";
import { svcCacheDir } from "./cache-dir.mjs";
import { ELF_MACHINE, foreignAddons, machineName } from "./elf-machine.mjs";
import { artifactFiles, bundledExternals, externalClosure } from "./externals.mjs";
import { platformPackagesFor } from "./platform-packages.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const quiet = args.includes("--quiet");
const say = (line) => quiet || console.log(line);
const fail = (line) => {
  console.error(`package: ${line}`);
  process.exit(2);
};

const packageJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const version = option("--version", packageJson.version);
const outDir = resolve(option("--out", join(root, "dist/packages")));
const archOption = option("--arch", "all");
const baseUrl = option("--base-url", undefined);
const only = option("--only", undefined);
const channel = option("--channel", "stable");

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;
if (!SEMVER.test(version)) fail(`--version ${JSON.stringify(version)}: must be a semantic version such as 1.2.3`);
if (!["amd64", "arm64", "all"].includes(archOption)) fail(`--arch ${JSON.stringify(archOption)}: must be amd64, arm64 or all`);
if (only !== undefined && only !== "svc-server" && only !== "agent") fail(`--only ${JSON.stringify(only)}: must be svc-server or agent`);
if (channel !== "stable" && channel !== "dev") fail(`--channel ${JSON.stringify(channel)}: must be stable or dev`);

// product (the release index's name) -> executable and bundle name.
const products = { "svc-server": "svc-server", agent: "svc-agent" };
const chosen = only ? [only] : Object.keys(products);
const arches = archOption === "all" ? ["amd64", "arm64"] : [archOption];
// Native addons in node_modules were compiled for the machine building; other arches get builds
// of their own (addon-builds.mjs).
const hostArch = process.arch === "x64" ? "amd64" : process.arch;

/** The external packages into `dir`/node_modules, each with its native code for `arch`. */
function copyExternals(wanted, arch, dir) {
  const closure = externalClosure(root, wanted, arch === hostArch ? "host" : arch).copy;
  const copy =
    arch === hostArch ? closure : platformPackagesFor({ root, arch, hostArch, packages: closure, cacheRoot: svcCacheDir(), say: (line) => say(`package: ${line}`) });
  const { builds } =
    arch === hostArch
      ? { builds: new Map() }
      : addonBuildsFor({
          root,
          arch,
          packages: copy,
          allowScripts: packageJson.allowScripts ?? {},
          cacheRoot: svcCacheDir(),
          say: (line) => say(`package: ${line}`),
        });
  for (const pkg of copy) {
    const into = join(dir, "node_modules", pkg.name);
    cpSync(pkg.dir, into, { recursive: true, verbatimSymlinks: true, filter: artifactFiles(pkg, arch) });
    if (builds.has(pkg.name)) cpSync(builds.get(pkg.name), join(into, "build"), { recursive: true });
  }
}

/** Refuses an artifact holding a .node file that is not code for `arch`. */
function checkMachine(dir, arch, file) {
  const foreign = foreignAddons(dir, arch);
  if (foreign.length === 0) return;
  const listed = foreign.map((f) => `${f.file} (${machineName(f.machine)})`).join(", ");
  throw new Error(`${file} is not written: linux/${arch} needs native code for ${machineName(ELF_MACHINE[arch])}, and it would hold ${listed}`);
}

// The agent idles between update checks and must stay small beside the server it watches: a
// young generation capped at 1 MB keeps V8 from holding tens of MB after a download or a burst.
const nodeOptions = { "svc-server": "", "svc-agent": "--max-semi-space-size=1 --max-old-space-size=32 " };

const launcher = (name) => `#!/bin/sh
# ${name} ${version}: runs the bundled program with the system's Node.js (20 or later; SVC_NODE picks another).
node="\${SVC_NODE:-node}"
if ! command -v "$node" >/dev/null 2>&1; then
  echo "${name}: Node.js 20 or later is needed to run; '$node' was not found (set SVC_NODE to its path)" >&2
  exit 127
fi
exec "$node" ${nodeOptions[name]}"$(dirname "$0")/lib/${name}.mjs" "$@"
`;

const staging = mkdtempSync(join(tmpdir(), "svc-package-"));
try {
  execFileSync(process.execPath, [join(root, "tools/build/index.mjs"), "--only", "linux", "--quiet", "--version", version, "--outdir", join(staging, "build")], {
    stdio: "inherit",
  });
  mkdirSync(outDir, { recursive: true });
  const built = [];
  for (const product of chosen) {
    const name = products[product];
    const bundle = join(staging, "build/linux", `${name}.mjs`);
    const wanted = bundledExternals(readFileSync(bundle, "utf8"), nativeExternals);
    for (const arch of arches) {
      const dir = join(staging, `${name}-${arch}`);
      mkdirSync(join(dir, "lib"), { recursive: true });
      writeFileSync(join(dir, name), launcher(name));
      chmodSync(join(dir, name), 0o755);
      writeFileSync(join(dir, "svc-release.json"), `${JSON.stringify({ product: name, version, platform: `linux/${arch}` })}\n`);
      cpSync(bundle, join(dir, "lib", `${name}.mjs`));
      // svc-server's control page is read from server-page/ beside lib/.
      if (name === "svc-server") cpSync(join(staging, "build/server-page"), join(dir, "server-page"), { recursive: true });
      const file = `${name}-${version}-linux-${arch}.tar.gz`;
      copyExternals(wanted, arch, dir);
      checkMachine(dir, arch, file);
      const top = readdirSync(dir).sort();
      const tar = execFileSync(
        "tar",
        ["--sort=name", "--mtime=@0", "--owner=0", "--group=0", "--numeric-owner", "--mode=go-w", "--format=gnu", "-cf", "-", "-C", dir, ...top],
        { maxBuffer: 1024 * 1024 * 1024 },
      );
      const gz = gzipSync(tar, { level: 9 });
      writeFileSync(join(outDir, file), gz);
      const sha256 = createHash("sha256").update(gz).digest("hex");
      built.push({ product, arch, file, sha256, size: gz.length });
      say(`package: ${join(outDir, file)} (${(gz.length / 1024 / 1024).toFixed(1)} MB, sha256 ${sha256})`);
    }
  }

  // The index: merged into what the out folder already lists.
  const indexFile = join(outDir, "index.json");
  let index = {};
  if (existsSync(indexFile)) {
    try {
      index = JSON.parse(readFileSync(indexFile, "utf8"));
    } catch {
      say(`package: ${indexFile} was not valid JSON; writing a new one`);
    }
  }
  for (const { product, arch, file, sha256, size } of built) {
    const entry = (index[product] ??= {});
    entry.channels ??= {};
    entry.versions ??= {};
    entry.versions[version] ??= {};
    const url = baseUrl ? `${baseUrl.replace(/\/+$/, "")}/${file}` : file;
    entry.versions[version][`linux/${arch}`] = { url, sha256, size };
    entry.channels[channel] = version;
  }
  writeFileSync(indexFile, `${JSON.stringify(index, null, 2)}\n`);
  say(`package: ${indexFile} lists ${version} as ${channel}`);
} catch (error) {
  console.error(`package: ${error.message}`);
  process.exitCode = 2;
} finally {
  rmSync(staging, { recursive: true, force: true });
}
