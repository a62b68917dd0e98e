// A real NetworkManager for tests: a private system-type dbus-daemon, and NetworkManager running
// inside a fresh network namespace whose veths lead to a peer namespace. The peer holds the
// "internet" the connectivity check reaches (switchable between FULL, LIMITED and PORTAL) and,
// optionally, a dnsmasq DHCP server. Everything is named `svc-nm-<pid>-<n>` and stopped by PID;
// both namespaces and the directory are removed on stop.
//
// Peer side of veth i: `eth<i>p` in `<ns>-p`, address 10.200.<i>.1/24; NetworkManager's side is
// `eth<i>` in `<ns>`. The check URI is http://192.0.2.80/check, served from the peer's loopback.
import { systemBusConfig } from "./sim-network-manager/private-system-bus.js";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Message, sessionBus } from "dbus-next";
import { eventually } from "./eventually.js";
import { requireNetworkNamespaces, requireTools } from "./system-tools.js";

export type InternetMode = "full" | "limited" | "portal";

export interface NmNetnsOptions {
  /** Number of veth pairs (default 1). */
  links?: number;
  /** Run dnsmasq in the peer to serve DHCP on every link (default false). */
  dhcp?: boolean;
  /** What the connectivity check finds at start (default "full"). */
  internet?: InternetMode;
}

export interface NmNetns {
  /** The namespace NetworkManager runs in. */
  namespace: string;
  peerNamespace: string;
  /** `unix:path=...` of the private system bus. */
  busAddress: string;
  /** NetworkManager's interfaces: eth0, eth1, ... */
  interfaces: string[];
  /** The peer's address on link i (the gateway to use). */
  peerAddress(link: number): string;
  setInternet(mode: InternetMode): Promise<void>;
  /** `ip -n <namespace> ...`, stdout. */
  ip(...args: string[]): string;
  /** `ip -n <peerNamespace> ...`, stdout. */
  peerIp(...args: string[]): string;
  /** NetworkManager's own log so far (for failure messages). */
  nmLog(): string;
  stop(): Promise<void>;
}

const CHECK_ADDRESS = "192.0.2.80";
const CHECK_TEXT = "NetworkManager is online";

/** Throws, saying what to install, unless a real NetworkManager can run in namespaces here. */
function requireNmNetns(options: NmNetnsOptions = {}): void {
  requireNetworkNamespaces();
  requireTools("NetworkManager", "dbus-daemon", "ip", ...(options.dhcp ? (["dnsmasq"] as const) : []));
}

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed: ${result.stderr || result.error?.message || result.status}`);
  }
  return result.stdout;
}

function freeName(): string {
  for (let n = 0; ; n += 1) {
    const name = `svc-nm-${process.pid}-${n}`;
    if (!existsSync(`/run/netns/${name}`) && !existsSync(join(tmpdir(), name))) return name;
  }
}

function nmConfig(dir: string): string {
  return `[main]
plugins=keyfile
dns=none
rc-manager=unmanaged
systemd-resolved=false
hostname-mode=none
auth-polkit=false
dhcp=internal
no-auto-default=*

[keyfile]
path=${dir}/conns
unmanaged-devices=interface-name:lo

[connectivity]
enabled=true
uri=http://${CHECK_ADDRESS}/check
response=${CHECK_TEXT}
interval=5
`;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.pid === undefined) return;
  const done = exited(child);
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await done;
  clearTimeout(timer);
}

/** Waits for the bus to accept connections and NetworkManager to finish starting. */
async function waitForNetworkManager(busAddress: string, nm: ChildProcess, log: () => string): Promise<void> {
  const bus = sessionBus({ busAddress });
  try {
    await eventually(async () => {
      if (nm.exitCode !== null || nm.signalCode !== null) throw new Error(`NetworkManager exited: ${log().slice(-2000)}`);
      const reply = await bus.call(
        new Message({
          destination: "org.freedesktop.NetworkManager",
          path: "/org/freedesktop/NetworkManager",
          interface: "org.freedesktop.DBus.Properties",
          member: "Get",
          signature: "ss",
          body: ["org.freedesktop.NetworkManager", "Startup"],
        }),
      );
      const startup = (reply?.body[0] as { value: boolean } | undefined)?.value;
      return startup === false ? true : undefined;
    }, "NetworkManager to own its bus name and finish starting");
  } finally {
    bus.disconnect();
  }
}

/** The peer namespace (the "internet", with the connectivity check's address) and a veth pair per link. */
function linkNamespaces(name: string, peer: string, links: number): void {
  run("ip", ["netns", "add", peer]);
  run("ip", ["-n", peer, "link", "set", "lo", "up"]);
  run("ip", ["-n", peer, "addr", "add", `${CHECK_ADDRESS}/32`, "dev", "lo"]);
  for (let i = 0; i < links; i += 1) {
    run("ip", ["link", "add", `eth${i}`, "netns", name, "type", "veth", "peer", "name", `eth${i}p`, "netns", peer]);
    run("ip", ["-n", peer, "addr", "add", `10.200.${i}.1/24`, "dev", `eth${i}p`]);
    run("ip", ["-n", peer, "link", "set", `eth${i}p`, "up"]);
  }
}

/** dnsmasq in the peer namespace, handing out addresses on every link. */
function startDhcp(peer: string, dir: string, interfaces: string[]): ChildProcess {
  const ranges = interfaces.flatMap((_, i) => [`--dhcp-range=10.200.${i}.100,10.200.${i}.150,255.255.255.0,12h`]);
  return spawn(
    "ip",
    [
      "netns", "exec", peer, "dnsmasq", "--keep-in-foreground", "--no-resolv", "--no-hosts", "--port=0",
      "--bind-interfaces", ...interfaces.map((_, i) => `--interface=eth${i}p`), "--except-interface=lo",
      `--dhcp-leasefile=${dir}/dnsmasq.leases`, "--pid-file=", ...ranges,
    ],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
}

/** NetworkManager in the namespace, on the private bus, with its own run and state folders. */
function startNetworkManager(name: string, dir: string, busAddress: string): ChildProcess {
  const nmLogFd = openSync(join(dir, "nm.log"), "a");
  const script = [
    `mount --bind ${dir}/run /run`,
    `mount --bind ${dir}/state /var/lib/NetworkManager`,
    "mount -o remount,bind,ro /sys",
    `DBUS_SYSTEM_BUS_ADDRESS=${busAddress} exec NetworkManager --no-daemon --debug --config=${dir}/NM.conf` +
      ` --config-dir=${dir}/conf.d --system-config-dir=${dir}/sysconf.d --intern-config=${dir}/state/intern.conf` +
      ` --state-file=${dir}/state/NM.state --pid-file=${dir}/run/nm.pid`,
  ].join("; ");
  const nm = spawn("ip", ["netns", "exec", name, "sh", "-c", script], { stdio: ["ignore", nmLogFd, nmLogFd] });
  closeSync(nmLogFd);
  return nm;
}

/** Tells the connectivity server what the internet answers now, and waits until it says so. */
async function setInternetMode(server: ChildProcess | undefined, mode: InternetMode): Promise<void> {
  if (!server?.stdin || !server.stdout) throw new Error("the connectivity server is not running");
  const acknowledged = new Promise<void>((resolve, reject) => {
    let seen = "";
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString("utf8");
      if (seen.includes(`mode ${mode}\n`)) {
        server.stdout?.off("data", onData);
        resolve();
      }
    };
    server.stdout?.on("data", onData);
    server.once("exit", () => reject(new Error("the connectivity server exited")));
  });
  server.stdin.write(`${mode}\n`);
  await acknowledged;
}

export async function startNmNetns(options: NmNetnsOptions = {}): Promise<NmNetns> {
  requireNmNetns(options);
  const links = options.links ?? 1;
  const name = freeName();
  const peer = `${name}-p`;
  const dir = join(tmpdir(), name);
  const busAddress = `unix:path=${dir}/bus.sock`;
  const children: ChildProcess[] = [];
  const interfaces = Array.from({ length: links }, (_, i) => `eth${i}`);
  let internet: ChildProcess | undefined;
  let namespacesMade = false;

  const stop = async (): Promise<void> => {
    for (const child of children.reverse()) await stopProcess(child);
    if (namespacesMade) {
      spawnSync("ip", ["netns", "del", name]);
      spawnSync("ip", ["netns", "del", peer]);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    for (const sub of ["conns", "state", "run", "conf.d", "sysconf.d"]) mkdirSync(join(dir, sub), { recursive: true });
    writeFileSync(join(dir, "bus.conf"), systemBusConfig(join(dir, "bus.sock")));
    writeFileSync(join(dir, "NM.conf"), nmConfig(dir));

    const busLog = openSync(join(dir, "dbus.log"), "a");
    const daemon = spawn("dbus-daemon", [`--config-file=${dir}/bus.conf`, "--nofork", "--nopidfile"], {
      stdio: ["ignore", busLog, busLog],
    });
    closeSync(busLog);
    children.push(daemon);

    run("ip", ["netns", "add", name]);
    namespacesMade = true;
    linkNamespaces(name, peer, links);

    const serverScript = fileURLToPath(new URL("./nm-connectivity-server.mjs", import.meta.url));
    internet = spawn("ip", ["netns", "exec", peer, process.execPath, serverScript, CHECK_ADDRESS, "80", CHECK_TEXT], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    children.push(internet);
    if (options.dhcp) children.push(startDhcp(peer, dir, interfaces));

    await eventually(() => (existsSync(join(dir, "bus.sock")) ? true : undefined), "the private bus socket");
    const nm = startNetworkManager(name, dir, busAddress);
    children.push(nm);
    const nmLog = (): string => {
      try {
        return readFileSync(join(dir, "nm.log"), "utf8");
      } catch {
        return "";
      }
    };

    const setInternet = (mode: InternetMode) => setInternetMode(internet, mode);

    await setInternet(options.internet ?? "full");
    await waitForNetworkManager(busAddress, nm, nmLog);

    return {
      namespace: name,
      peerNamespace: peer,
      busAddress,
      interfaces,
      peerAddress: (link) => `10.200.${link}.1`,
      setInternet,
      ip: (...args) => run("ip", ["-n", name, ...args]),
      peerIp: (...args) => run("ip", ["-n", peer, ...args]),
      nmLog,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
