// Which node_modules packages an artifact carries: the externals a bundle actually imports, and
// everything they depend on, found the way Node finds them. For an arch other than the building
// machine's, a native addon comes along only when it ships a prebuilt binary for that arch.
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

const NODE_ARCH = { amd64: "x64", arm64: "arm64" };

/**
 * The top-level packages to copy for `names` and their dependencies. `arch` is "host" or the
 * target arch; returns `copy` ({ name, dir, dropBuild }) and `left` (names left out).
 */
export function externalClosure(root, names, arch) {
  const copy = new Map();
  const left = new Set();
  const seen = new Set();
  const top = join(root, "node_modules");
  const visit = (dir) => {
    if (seen.has(dir)) return;
    seen.add(dir);
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const native = existsSync(join(dir, "binding.gyp")) || hasNodeFiles(dir);
    let dropBuild = false;
    if (native && arch !== "host") {
      const prebuilt = join(dir, "prebuilds", `linux-${NODE_ARCH[arch]}`);
      if (!existsSync(prebuilt) || !statSync(prebuilt).isDirectory()) {
        left.add(manifest.name);
        return;
      }
      dropBuild = true;
    }
    const rel = relative(top, dir);
    // Nested packages (node_modules/a/node_modules/b) travel inside their parent's copy.
    if (!rel.startsWith("..") && !rel.includes(`${sep}node_modules${sep}`)) copy.set(rel, { name: rel, dir, dropBuild });
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
  return { copy: [...copy.values()].sort((a, b) => (a.name < b.name ? -1 : 1)), left: [...left].sort() };
}
