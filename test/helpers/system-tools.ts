// The system programs the suite drives for real. A missing one fails the tests that need it,
// naming the Debian package that provides it (`npm test` installs them as root through
// tools/system-deps.sh), so coverage is never lost silently.
import { existsSync } from "node:fs";
import { join } from "node:path";

/** Program -> the Debian package that provides it. */
const PROVIDERS = {
  openssl: "openssl",
  "systemd-analyze": "systemd",
  socat: "socat",
  "qemu-system-x86_64": "qemu-system-x86",
  NetworkManager: "network-manager",
  "dbus-daemon": "dbus",
  ip: "iproute2",
  dnsmasq: "dnsmasq-base",
  chromium: "chromium",
  dig: "bind9-dnsutils",
  "apt-config": "apt",
  curl: "curl",
  prlimit: "util-linux",
  "qemu-aarch64-static": "qemu-user-static",
} as const;

export type SystemTool = keyof typeof PROVIDERS;

export function onPath(program: string): boolean {
  const dirs = (process.env.PATH ?? "").split(":").concat(["/usr/sbin", "/sbin"]);
  return dirs.some((dir) => dir !== "" && existsSync(join(dir, program)));
}

/** Throws, naming the package to install, unless every program is on the PATH. */
export function requireTools(...programs: SystemTool[]): void {
  const missing = programs.filter((program) => !onPath(program));
  if (missing.length === 0) return;
  const packages = [...new Set(missing.map((program) => PROVIDERS[program]))];
  throw new Error(`${missing.join(", ")} not installed: apt install ${packages.join(" ")} (npm test installs it when run as root)`);
}

/** Throws unless this process may create network namespaces (root on Linux). */
export function requireNetworkNamespaces(): void {
  if (process.platform !== "linux") throw new Error("needs Linux network namespaces");
  if (typeof process.getuid === "function" && process.getuid() !== 0) throw new Error("needs root to create network namespaces");
}
