// The C/C++ toolchain that builds native addons for another architecture on this machine: Debian's
// cross compilers (gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu) and, through Debian's multiarch,
// the target's own -dev packages an addon links against (libgpiod-dev:arm64). What is missing is
// named with the commands that install it, before any build starts.
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { join } from "node:path";

/** Per target arch: the GNU triplet of its cross tools, Debian's name for the arch, node-gyp's. */
export const CROSS_TARGETS = {
  arm64: { triplet: "aarch64-linux-gnu", debianArch: "arm64", gypArch: "arm64" },
};

function onPath(program, path) {
  return (path ?? "").split(":").some((dir) => {
    if (dir === "") return false;
    try {
      accessSync(join(dir, program), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Whether dpkg lists `pkg` (`libgpiod-dev:arm64`) as installed; true where there is no dpkg to ask. */
function debianPackageInstalled(pkg) {
  const query = spawnSync("dpkg-query", ["-W", "-f=${Status}", pkg], { encoding: "utf8" });
  if (query.error) return true;
  return query.status === 0 && query.stdout.includes("install ok installed");
}

/**
 * The toolchain building `addons` ({ name, links }) for linux/`arch`: `{ triplet, gypArch, env }`
 * (env: CC, CXX, LINK and AR for node-gyp), or an error naming what to install. The compilers
 * are looked for on `path`.
 */
export function crossToolchain(arch, addons, path = process.env.PATH) {
  const names = addons.map((a) => a.name).join(", ");
  const target = CROSS_TARGETS[arch];
  if (!target) {
    throw new Error(`${names} must be built for linux/${arch}, and tools/package/cross-toolchain.mjs knows only how to build for ${Object.keys(CROSS_TARGETS).join(", ")}`);
  }
  const { triplet, debianArch } = target;
  const compilers = [
    [`${triplet}-gcc`, `gcc-${triplet}`],
    [`${triplet}-g++`, `g++-${triplet}`],
  ];
  const missing = compilers.filter(([program]) => !onPath(program, path)).map(([, pkg]) => pkg);
  const libraries = [...new Set(addons.flatMap((a) => a.links ?? []))].map((lib) => `${lib}:${debianArch}`);
  missing.push(...libraries.filter((pkg) => !debianPackageInstalled(pkg)));
  if (missing.length > 0) {
    const multiarch = missing.some((pkg) => pkg.endsWith(`:${debianArch}`)) ? `dpkg --add-architecture ${debianArch} && ` : "";
    throw new Error(
      `building ${names} for linux/${arch} needs ${missing.join(", ")}, which ${missing.length === 1 ? "is" : "are"} not installed. ` +
        `As root: ${multiarch}apt-get update && apt-get install ${missing.join(" ")} (sh tools/system-deps.sh test installs them)`,
    );
  }
  const env = { CC: `${triplet}-gcc`, CXX: `${triplet}-g++`, LINK: `${triplet}-g++`, AR: `${triplet}-ar` };
  return { triplet, gypArch: target.gypArch, env };
}
