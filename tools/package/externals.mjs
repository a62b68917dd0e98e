// Which node_modules packages an artifact carries: the externals a bundle actually imports, and
// everything they depend on, found the way Node finds them. Each native addon among them is marked
// with where its code for the artifact's arch comes from: this machine's build (the host arch), a
// prebuilt binary the package ships for that arch, or a build for that arch still to be made.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Package names among `externals` (patterns like "@scope/*" allowed) that `bundleText` imports. */
export function bundledExternals(bundleText, externals) {
  const found = new Set();
  for (const pattern of externals) {
    const name = pattern.endsWith("/*") ? `${escape(pattern.slice(0, -1))}[^"'/]+` : escape(pattern);
    const use = new RegExp(`(?:from|import|require)\\s*\\(?\\s*["'](${name})(?:/[^"']*)?["']`, "g");
    for (const m of bundleText.matchAll(use)) found.add(m[1]);
  }
  return [...found].sort();
}

function hasNodeFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory() ? hasNodeFiles(path) : entry.name.endsWith(".node")) return true;
  }
  return false;
}

function resolvePackage(root, fromDir, name) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dir === root || dir === dirname(dir)) return undefined;
  }
}

/** Node's name for each artifact arch (process.arch, and the prebuilds/linux-<arch> folders). */
const NODE_ARCH = { amd64: "x64", arm64: "arm64" };

/** Where a native package's code for `arch` ("host" or a target arch) comes from. */
function nativeSource(dir, arch) {
  if (!existsSync(join(dir, "binding.gyp")) && !hasNodeFiles(dir)) return undefined;
  if (arch === "host") return "host";
  const prebuilt = join(dir, "prebuilds", `linux-${NODE_ARCH[arch]}`);
  return existsSync(prebuilt) && statSync(prebuilt).isDirectory() ? "prebuilt" : "unbuilt";
}

/**
 * The top-level packages to copy for `names` and their dependencies. `arch` is "host" or the
 * target arch; returns `copy`: { name, dir, native }, native being undefined (no native code),
 * "host" (this machine's build travels), "prebuilt" (its prebuilds/linux-<arch>) or "unbuilt"
 * (a build for `arch` must be made and put in place of this machine's).
 */
export function externalClosure(root, names, arch) {
  const copy = new Map();
  const seen = new Set();
  const top = join(root, "node_modules");
  const visit = (dir) => {
    if (seen.has(dir)) return;
    seen.add(dir);
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const rel = relative(top, dir);
    // Nested packages (node_modules/a/node_modules/b) travel inside their parent's copy.
    if (!rel.startsWith("..") && !rel.includes(`${sep}node_modules${sep}`)) copy.set(rel, { name: rel, dir, native: nativeSource(dir, arch) });
    const deps = { ...manifest.dependencies, ...manifest.optionalDependencies };
    for (const dep of Object.keys(deps).sort()) {
      const found = resolvePackage(root, dir, dep);
      if (found) visit(found);
    }
  };
  for (const name of names) {
    const dir = resolvePackage(root, root, name);
    if (dir) visit(dir);
  }
  return { copy: [...copy.values()].sort((a, b) => (a.name < b.name ? -1 : 1)) };
}

/**
 * Which files of `pkg` (from externalClosure) go into an artifact for `arch`: not npm's .bin
 * links, not this machine's build when the code for `arch` comes from elsewhere, and of a
 * prebuilds folder only linux-<arch> (the others are code for other platforms).
 */
export function artifactFiles(pkg, arch) {
  const build = join(pkg.dir, "build");
  const prebuilds = join(pkg.dir, "prebuilds");
  const ownPrebuilds = join(prebuilds, `linux-${NODE_ARCH[arch]}`);
  const dropBuild = pkg.native === "prebuilt" || pkg.native === "unbuilt";
  return (src) => {
    if (src.includes("/node_modules/.bin")) return false;
    if (dropBuild && src === build) return false;
    return !(dirname(src) === prebuilds && src !== ownPrebuilds);
  };
}
