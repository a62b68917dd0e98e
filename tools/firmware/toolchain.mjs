// The SDKs a firmware build needs, found from the environment and checked before anything runs:
// the Moddable SDK at $MODDABLE (its host tools built under build/bin/lin/release), and for the
// Pico W the pico-sdk at $PICO_SDK_PATH with pico-extras and an (empty) pico-examples beside it,
// pioasm and picotool built inside it, and the arm-none-eabi GCC. Each thing missing is named
// with what to do about it (docs/mcu.md has the whole setup).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

export const MODDABLE_VERSION = "8.2.3";
export const PICO_SDK_VERSION = "2.2.0";

export class ToolchainError extends Error {}

const setup = "see docs/mcu.md, Building firmware";

function onPath(tool) {
  try {
    return execFileSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}

function moddable(env) {
  const home = env.MODDABLE;
  if (!home) throw new ToolchainError(`$MODDABLE is not set: point it at the Moddable SDK ${MODDABLE_VERSION} checkout (${setup})`);
  const bin = join(home, "build/bin/lin/release");
  for (const tool of ["mcconfig", "xsc", "xsl"]) {
    if (!existsSync(join(bin, tool))) throw new ToolchainError(`${join(bin, tool)} is missing: build the Moddable host tools (cd $MODDABLE/build/makefiles/lin && make) (${setup})`);
  }
  const versionFile = join(home, "tools/VERSION");
  const version = existsSync(versionFile) ? readFileSync(versionFile, "utf8").trim() : "unknown";
  if (version !== MODDABLE_VERSION) throw new ToolchainError(`$MODDABLE is Moddable SDK ${version}; svc-mcu is built with ${MODDABLE_VERSION} (${setup})`);
  return { home, bin };
}

function pico(env) {
  const sdk = env.PICO_SDK_PATH;
  if (!sdk) throw new ToolchainError(`$PICO_SDK_PATH is not set: point it at the pico-sdk ${PICO_SDK_VERSION} checkout (${setup})`);
  if (!existsSync(join(sdk, "pico_sdk_version.cmake"))) throw new ToolchainError(`$PICO_SDK_PATH (${sdk}) holds no pico-sdk (${setup})`);
  const root = dirname(sdk);
  const wanted = [
    [join(root, "pico-extras"), "pico-extras (sdk-2.2.0) beside the pico-sdk"],
    [join(root, "pico-examples"), "a pico-examples folder beside the pico-sdk (Moddable's makefile only checks it exists)"],
    [join(sdk, "lib/cyw43-driver/src"), "the pico-sdk's submodule lib/cyw43-driver"],
    [join(sdk, "lib/lwip/src"), "the pico-sdk's submodule lib/lwip"],
    [join(sdk, "build/pioasm/pioasm"), "pioasm built at $PICO_SDK_PATH/build/pioasm"],
    [join(sdk, "build/_deps/picotool/picotool"), "picotool built and copied to $PICO_SDK_PATH/build/_deps/picotool/picotool"],
  ];
  for (const [path, what] of wanted) if (!existsSync(path)) throw new ToolchainError(`${path} is missing: ${what} (${setup})`);
  const gcc = onPath("arm-none-eabi-gcc");
  if (!gcc) throw new ToolchainError(`arm-none-eabi-gcc is not on PATH: install gcc-arm-none-eabi, libnewlib-arm-none-eabi and libstdc++-arm-none-eabi-newlib (${setup})`);
  if (!onPath("bash")) throw new ToolchainError(`bash is not on PATH: Moddable's Pico makefile needs it (${setup})`);
  return { sdk, root, gccRoot: dirname(dirname(gcc)) };
}

/** The environment a build of `platform` runs in; throws a ToolchainError naming what is missing. */
export function toolchainFor(platform, env = process.env) {
  const sdk = moddable(env);
  const out = { ...env, MODDABLE: sdk.home, PATH: `${sdk.bin}:${env.PATH ?? ""}` };
  if (platform === "lin") {
    if (!onPath("cc")) throw new ToolchainError(`no C compiler (cc) on PATH: install build-essential (${setup})`);
    return { env: out, moddable: sdk };
  }
  const p = pico(env);
  return {
    env: { ...out, PICO_SDK_PATH: p.sdk, PICO_SDK_DIR: p.sdk, PICO_ROOT: p.root, PICO_EXTRAS_DIR: join(p.root, "pico-extras"), PICO_GCC_ROOT: p.gccRoot },
    moddable: sdk,
    pico: p,
  };
}
