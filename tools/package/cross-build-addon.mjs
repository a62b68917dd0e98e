// One native addon compiled for another architecture with node-gyp: a copy of its sources (never
// the checkout's node_modules, whose build is this machine's) is built with the cross toolchain
// against the target Node.js's headers, and its build/Release/*.node kept in the cache folder under
// addons/<name>@<version>-linux-<arch>-node-abi<N>, so packaging again reuses it.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { nodeGyp } from "../native-addons.mjs";
import { ELF_MACHINE, elfMachine, machineName } from "./elf-machine.mjs";

/** The cache entry's name for an addon build. */
export function addonBuildKey(name, version, arch, abi) {
  return `${name.replace("/", "+")}@${version}-linux-${arch}-node-abi${abi}`;
}

/** node_modules folders Node would search from `dir` up to `root`: where the build's `require('nan')` looks. */
function nodeModulesChain(dir, root) {
  const chain = [];
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, "node_modules"))) chain.push(join(at, "node_modules"));
    if (at === root || at === dirname(at)) return chain;
  }
}

/** This process's environment without npm's settings, which node-gyp would take for its own (npm's nodedir is this machine's). */
function withoutNpmSettings(env) {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !/^npm_config_/i.test(key)));
}

function compile({ name, source, root, pkgDir, nodeDir, toolchain }) {
  const args = [nodeGyp(), "rebuild", "--release", `--arch=${toolchain.gypArch}`, `--nodedir=${nodeDir}`];
  const env = { ...withoutNpmSettings(process.env), ...toolchain.env, NODE_PATH: nodeModulesChain(pkgDir, root).join(":") };
  const made = spawnSync(process.execPath, args, { cwd: source, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (made.status !== 0) {
    const said = `${made.stdout ?? ""}${made.stderr ?? ""}`.trim().split("\n").slice(-15).join("\n");
    throw new Error(`building ${name} for ${toolchain.triplet} failed (node-gyp ${args.slice(1).join(" ")} in a copy of ${relative(root, pkgDir)}):\n${said}`);
  }
}

/** The built .node files moved into `into`/Release, each checked to be code for `arch`. */
function collect(name, source, into, arch) {
  const release = join(source, "build/Release");
  const files = existsSync(release) ? readdirSync(release).filter((f) => f.endsWith(".node")) : [];
  if (files.length === 0) throw new Error(`building ${name} for linux/${arch} made no .node file in build/Release`);
  mkdirSync(join(into, "Release"), { recursive: true });
  for (const file of files) {
    const machine = elfMachine(join(release, file));
    if (machine !== ELF_MACHINE[arch]) throw new Error(`building ${name} for linux/${arch} made ${file} for ${machineName(machine)}`);
    cpSync(join(release, file), join(into, "Release", file));
  }
}

/** Where the build of the addon in `pkgDir` for `arch` and addon ABI `abi` is kept, made or not. */
export function cachedAddonBuild({ pkgDir, arch, abi, cacheRoot }) {
  const { name, version } = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  const dir = join(cacheRoot, "addons", addonBuildKey(name, version, arch, abi));
  return { dir, built: existsSync(join(dir, "Release")) };
}

/**
 * Compiles the addon in `pkgDir` (in the checkout, `root`) for `arch` into the cache, unless it is
 * there, and returns the folder to put at node_modules/<name>/build in an artifact for `arch`
 * (Release/*.node). `nodeDir` holds the headers of the target Node.js of addon ABI `abi`;
 * `toolchain` is crossToolchain(arch, ...).
 */
export function crossBuildAddon({ name, pkgDir, root, arch, abi, nodeDir, toolchain, cacheRoot }) {
  const { dir: final, built } = cachedAddonBuild({ pkgDir, arch, abi, cacheRoot });
  if (built) return final;
  const addons = dirname(final);
  mkdirSync(addons, { recursive: true });
  const work = mkdtempSync(join(addons, `.${basename(final)}-`));
  try {
    const source = join(work, "source");
    cpSync(pkgDir, source, { recursive: true, filter: (src) => src !== join(pkgDir, "build") && src !== join(pkgDir, "node_modules") });
    compile({ name, source, root, pkgDir, nodeDir, toolchain });
    collect(name, source, join(work, "build"), arch);
    try {
      renameSync(join(work, "build"), final);
    } catch (error) {
      // Another packaging built the same addon meanwhile: theirs stands.
      if (!existsSync(join(final, "Release"))) throw error;
    }
    return final;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
