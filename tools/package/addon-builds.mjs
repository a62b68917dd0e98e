// How an artifact for another architecture gets the code of its native addons. A package that
// ships a prebuilt binary for that arch brings it (serialport's). An addon the project builds
// (ADDONS in tools/native-addons.mjs) is compiled for that arch with the cross toolchain, or taken
// from the cache where an earlier packaging left it. An addon whose build npm is told never to
// run and the project does not build either (allowScripts false in package.json: dbus-next's
// optional usocket) travels as it does in every artifact, as source its user does without. Any
// other native addon stops the packaging, naming it: none is left out unsaid.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ADDONS } from "../native-addons.mjs";
import { cachedAddonBuild, crossBuildAddon } from "./cross-build-addon.mjs";
import { crossToolchain } from "./cross-toolchain.mjs";
import { targetNode, targetNodePin } from "./target-node.mjs";

function sortAddons(packages, allowScripts, arch) {
  const build = [];
  const source = [];
  const unknown = [];
  for (const pkg of packages.filter((p) => p.native === "unbuilt")) {
    const addon = ADDONS.find((a) => a.name === pkg.name);
    if (addon && existsSync(join(pkg.dir, "binding.gyp"))) build.push({ ...pkg, links: addon.links });
    else if (!addon && allowScripts[pkg.name] === false) source.push(pkg.name);
    else unknown.push(pkg.name);
  }
  if (unknown.length > 0) {
    throw new Error(
      `${unknown.join(", ")}: native code without a prebuilt binary for linux/${arch}, and not an addon with a binding.gyp that ` +
        "tools/native-addons.mjs builds; add it to ADDONS there (with the -dev packages it links against) so that every artifact gets a build of it",
    );
  }
  return { build, source };
}

/**
 * For the packages of an artifact for `arch` (externalClosure's `copy`): a map from addon name to
 * the folder that becomes its build/ in the artifact, and the names that travel as source.
 * `allowScripts` is package.json's; `say` prints a line.
 */
export function addonBuildsFor({ root, arch, packages, allowScripts, cacheRoot, say }) {
  const { build, source } = sortAddons(packages, allowScripts, arch);
  for (const name of source) say(`${name} travels without compiled code for linux/${arch}, as in every artifact (npm never runs its build; what uses it does without)`);
  const builds = new Map();
  if (build.length === 0) return { builds, source };
  const { abi } = targetNodePin(arch);
  const toMake = build.filter((pkg) => !cachedAddonBuild({ pkgDir: pkg.dir, arch, abi, cacheRoot }).built);
  // The toolchain and the target's Node.js are needed only for what the cache does not hold.
  const toolchain = toMake.length > 0 ? crossToolchain(arch, toMake) : undefined;
  const nodeDir = toMake.length > 0 ? targetNode(arch, cacheRoot).dir : undefined;
  for (const pkg of build) {
    if (toMake.includes(pkg)) say(`building ${pkg.name} for linux/${arch}`);
    builds.set(pkg.name, crossBuildAddon({ name: pkg.name, pkgDir: pkg.dir, root, arch, abi, nodeDir, toolchain, cacheRoot }));
  }
  return { builds, source };
}
