// The native addons the hardware backends and the XS runner stand on, built and checked by the
// project itself. npm is told never to run node-libgpiod's and i2c-bus's own build
// (`allowScripts` false in package.json): npm may run a dependency's install script before any
// script of ours, so the system packages they compile against might not be there yet, and npm
// silently drops an optional dependency whose build failed. The package's postinstall runs
// `tools/system-deps.sh runtime` and then this, so the order is ours.
//
//   node tools/native-addons.mjs build   builds what is not built and loadable yet
//   node tools/native-addons.mjs check   exits 1 unless every addon loads, saying which and why
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(root, "package.json"));

/**
 * Each addon: how it is built (by us with node-gyp, or by its own install script), how it is proven
 * loadable, and the Debian -dev packages it links against (`links`: a build for another
 * architecture needs them for that architecture, such as libgpiod-dev:arm64).
 */
export const ADDONS = [
  { name: "node-libgpiod", build: "node-gyp", system: "libgpiod-dev", links: ["libgpiod-dev"], load: () => require("node-libgpiod").Chip },
  { name: "i2c-bus", build: "node-gyp", system: "g++", load: () => require("i2c-bus").openSync },
  {
    name: "@serialport/bindings-cpp",
    build: "own",
    system: "g++",
    load: () => require("@serialport/bindings-cpp").autoDetect().list,
  },
  {
    name: "better-sqlite3",
    build: "own",
    system: "g++, make and python3",
    load: () => new (require("better-sqlite3"))(":memory:").close(),
  },
  {
    name: "@agoric/xsnap",
    build: "own",
    system: "gcc and make",
    load: () => {
      const worker = join(dirname(require.resolve("@agoric/xsnap/package.json")), "xsnap-native/xsnap/build/bin/lin/release/xsnap-worker");
      if (!existsSync(worker)) throw new Error(`${worker} was not built`);
      return worker;
    },
  },
];

/** Why the addon does not load, or undefined when it does. */
export function whyNotLoadable(addon) {
  try {
    if (!addon.load()) return "it loads but exports nothing usable";
    return undefined;
  } catch (thrown) {
    return String(thrown?.message ?? thrown).split("\n")[0];
  }
}

/** npm's own node-gyp: npm names it to its scripts; from a shell, it sits beside npm. */
export function nodeGyp() {
  if (process.env.npm_config_node_gyp && existsSync(process.env.npm_config_node_gyp)) return process.env.npm_config_node_gyp;
  const npm = spawnSync("npm", ["root", "-g"], { encoding: "utf8" });
  const candidate = join(npm.stdout.trim(), "npm/node_modules/node-gyp/bin/node-gyp.js");
  if (existsSync(candidate)) return candidate;
  return require.resolve("node-gyp/bin/node-gyp.js");
}

function build() {
  let failed = 0;
  for (const addon of ADDONS.filter((a) => a.build === "node-gyp")) {
    let dir;
    try {
      dir = dirname(require.resolve(`${addon.name}/package.json`));
    } catch {
      console.error(`svc: ${addon.name} is not installed (run npm install again)`);
      failed++;
      continue;
    }
    if (whyNotLoadable(addon) === undefined) continue;
    console.error(`svc: building ${addon.name}`);
    const made = spawnSync(process.execPath, [nodeGyp(), "rebuild"], { cwd: dir, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
    const why = made.status === 0 ? whyNotLoadable(addon) : made.stderr.trim().split("\n").slice(-8).join("\n");
    if (why !== undefined) {
      console.error(`svc: ${addon.name} did not build (it needs ${addon.system}); the backend that uses it will say so:\n${why}`);
      failed++;
    }
  }
  return failed;
}

function check() {
  let failed = 0;
  for (const addon of ADDONS) {
    const why = whyNotLoadable(addon);
    if (why === undefined) continue;
    console.error(`svc: ${addon.name} does not load (it needs ${addon.system}): ${why}`);
    failed++;
  }
  return failed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const verb = process.argv[2];
  if (verb === "build") {
    build();
    // A missing addon never fails the install: svc runs without it and its backend says what to
    // install. The test suite's addon check is what fails when a promised addon did not build.
    process.exit(0);
  }
  if (verb === "check") process.exit(check() === 0 ? 0 : 1);
  console.error("usage: node tools/native-addons.mjs build|check");
  process.exit(2);
}
