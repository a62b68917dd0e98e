// Avahi, the resolver Linux desktops browse the local network with, as the other host on an mDNS
// test's link: avahi-daemon runs in the peer network namespace on a private system bus of its own
// (a dbus-daemon on a socket under the test's folder), with /run replaced by a folder of the
// test's in its own mount namespace, so neither the host's bus, its /run nor its port 5353 is
// touched. avahi-browse and avahi-resolve ask it from the same namespace over that bus.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eventually } from "../helpers/eventually.js";
import type { MdnsNetns } from "../helpers/mdns-netns.js";
import { systemBusConfig } from "../helpers/sim-network-manager/private-system-bus.js";
import { onPath } from "../helpers/system-tools.js";

const PACKAGES: Record<string, string> = { "avahi-daemon": "avahi-daemon", "avahi-browse": "avahi-utils", "avahi-resolve": "avahi-utils", "dbus-daemon": "dbus", unshare: "util-linux" };

export interface AvahiPeer {
  /** Runs an avahi tool (avahi-browse, avahi-resolve) in the peer namespace, on the private bus. */
  run(tool: string, args: string[]): { status: number | null; stdout: string; stderr: string };
  /** Every line avahi-daemon has printed. */
  log(): string;
  stop(): Promise<void>;
}

function requireAvahi(): void {
  const missing = Object.keys(PACKAGES).filter((program) => !onPath(program));
  if (missing.length === 0) return;
  const packages = [...new Set(missing.map((program) => PACKAGES[program]))];
  throw new Error(`${missing.join(", ")} not installed: apt-get install --no-install-recommends ${packages.join(" ")} (docs/mcu.md, Building firmware)`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  await exited;
}

function daemonConfig(hostName: string, iface: string): string {
  return [
    "[server]",
    `host-name=${hostName}`,
    "use-ipv4=yes",
    "use-ipv6=no",
    `allow-interfaces=${iface}`,
    "enable-dbus=yes",
    "[wide-area]",
    "enable-wide-area=no",
    "[publish]",
    "publish-hinfo=no",
    "publish-workstation=no",
    "",
  ].join("\n");
}

/** Starts avahi-daemon as `hostName` on the peer's first link; `dir` is a folder of the test's own. */
export async function startAvahiPeer(net: MdnsNetns, dir: string, hostName: string): Promise<AvahiPeer> {
  requireAvahi();
  const run = join(dir, "run");
  mkdirSync(run, { recursive: true });
  const socket = join(dir, "bus.sock");
  const busAddress = `unix:path=${socket}`;
  writeFileSync(join(dir, "bus.conf"), systemBusConfig(socket));
  writeFileSync(join(dir, "avahi-daemon.conf"), daemonConfig(hostName, "eth0p"));
  const bus = spawn("dbus-daemon", [`--config-file=${join(dir, "bus.conf")}`, "--nofork", "--nopidfile"], { stdio: "ignore" });
  let daemon: ChildProcess | undefined;
  let log = "";
  const stop = async () => {
    if (daemon) await stopChild(daemon);
    await stopChild(bus);
  };
  try {
    await eventually(() => (existsSync(socket) ? true : undefined), "the private bus");
    const script = `mount --bind "$1" /run && exec env DBUS_SYSTEM_BUS_ADDRESS="$2" avahi-daemon -f "$3" --no-drop-root --no-chroot --no-rlimits`;
    daemon = spawn("ip", ["netns", "exec", net.peerNamespace, "unshare", "-m", "sh", "-c", script, "sh", run, busAddress, join(dir, "avahi-daemon.conf")], { stdio: ["ignore", "pipe", "pipe"] });
    daemon.stdout!.on("data", (chunk) => (log += chunk));
    daemon.stderr!.on("data", (chunk) => (log += chunk));
    await eventually(() => (/Server startup complete/.test(log) ? true : undefined), "avahi-daemon's start");
  } catch (error) {
    await stop();
    throw new Error(`${String(error)}\n${log}`);
  }
  return {
    run(tool, args) {
      const result = spawnSync("ip", ["netns", "exec", net.peerNamespace, "env", `DBUS_SYSTEM_BUS_ADDRESS=${busAddress}`, tool, ...args], { encoding: "utf8", timeout: 30_000 });
      return { status: result.status, stdout: result.stdout ?? "", stderr: result.stderr ?? "" };
    },
    log: () => log,
    stop,
  };
}
