// Two machines on a private link for mDNS tests and benchmarks: a pair of network namespaces
// (`svc-mdns-<pid>-<n>` for svc-server, `...-p` for the other machine) joined by veth pairs with
// multicast on, addresses on 192.168.<link+1>.0/24 (svc-server's side .20, the peer's .1) and a
// route for 224.0.0.0/4 on the first link. The host's own network and port 5353 are never touched.
// Processes started here are stopped by their PID; stop() removes both namespaces.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { eventually } from "./eventually.js";
import { requireNetworkNamespaces, requireTools, type SystemTool } from "./system-tools.js";

// Found from here and from the bundled benchmarks (dist/bench) alike.
const PEER_SCRIPT = join(import.meta.dirname, "..", "..", "test", "helpers", "mdns-peer.mjs");

export interface MdnsLink {
  /** svc-server's address on the link ("192.168.1.20"), and its interface ("eth0"). */
  readonly address: string;
  readonly interface: string;
  /** The peer's address on the link ("192.168.1.1"). */
  readonly peerAddress: string;
}

/** A JSON line of `mdns-peer.mjs listen`: one packet that reached the peer's port 5353. */
export interface HeardPacket {
  readonly from: string;
  readonly port: number;
  readonly size: number;
  readonly response?: boolean;
  readonly questions?: { name: string; type: string | number }[];
  readonly records?: { name: string; type: string | number; ttl: number; data: unknown }[];
  readonly unreadable?: string;
}

export interface PeerListener {
  /** Every packet heard so far, oldest first. */
  heard(): HeardPacket[];
  stop(): Promise<void>;
}

export interface MdnsNetns {
  /** svc-server's namespace. */
  readonly namespace: string;
  readonly peerNamespace: string;
  readonly links: readonly MdnsLink[];
  /** Links the namespaces once more (a cable plugged in while the machines run). */
  addLink(): MdnsLink;
  /** Runs a program in the peer's namespace to its end. */
  inPeer(program: string, args: string[], timeoutMs?: number): { status: number | null; stdout: string; stderr: string };
  /** Starts a program in a namespace; it is stopped (by PID) in stop() unless it ended before. */
  spawnIn(namespace: string, program: string, args: string[]): ChildProcess;
  /** The peer listens on every link and records what arrives on its port 5353. */
  listen(): Promise<PeerListener>;
  /** The peer sends `count` packets of `kind` (see mdns-peer.mjs) to `target` (the group by default) from `fromPort`. */
  send(kind: "query" | "garbage" | "malformed" | "oversize", count: number, target?: string, fromPort?: number): Promise<string>;
  /** The peer relays DNS questions on its 127.0.0.1:`port` to the group (see mdns-peer.mjs), for dig. */
  relay(port: number): Promise<void>;
  /** The UDP sockets process `pid` holds on port 5353 (its namespace's table, its own descriptors). */
  mdnsSockets(pid: number): number;
  stop(): Promise<void>;
}

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed: ${result.stderr || result.error?.message || result.status}`);
  return result.stdout;
}

function freeName(): string {
  for (let n = 0; ; n += 1) {
    const name = `svc-mdns-${process.pid}-${n}`;
    if (!existsSync(`/run/netns/${name}`) && !existsSync(`/run/netns/${name}-p`)) return name;
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  await exited;
}

/** Counts the sockets in `pid`'s descriptors that its namespace's UDP table shows on port 5353. */
function socketsOnMdnsPort(pid: number): number {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // Closed while read.
    }
  }
  const rows = readFileSync(`/proc/${pid}/net/udp`, "utf8").trim().split("\n").slice(1);
  return rows.filter((row) => {
    const fields = row.trim().split(/\s+/);
    return fields[1]?.endsWith(":14E9") && inodes.has(fields[9] ?? "");
  }).length;
}

/** Link `i` between the namespaces: a veth pair with multicast on and an address at each end. */
function addLink(name: string, peer: string, i: number): MdnsLink {
  const link = { address: `192.168.${i + 1}.20`, interface: `eth${i}`, peerAddress: `192.168.${i + 1}.1` };
  run("ip", ["link", "add", link.interface, "netns", name, "type", "veth", "peer", "name", `eth${i}p`, "netns", peer]);
  for (const [ns, dev, address] of [[name, link.interface, link.address], [peer, `eth${i}p`, link.peerAddress]] as const) {
    run("ip", ["-n", ns, "addr", "add", `${address}/24`, "dev", dev]);
    run("ip", ["-n", ns, "link", "set", dev, "multicast", "on", "up"]);
    // Multicast a program sends without choosing an interface leaves by the first link.
    if (i === 0) run("ip", ["-n", ns, "route", "add", "224.0.0.0/4", "dev", dev]);
  }
  return link;
}

/** Creates the namespaces and links; `tools` are checked first (a missing one fails, naming its package). */
export async function startMdnsNetns(options: { links?: number; tools?: SystemTool[] } = {}): Promise<MdnsNetns> {
  requireNetworkNamespaces();
  requireTools("ip", ...(options.tools ?? []));
  const name = freeName();
  const peer = `${name}-p`;
  const children: ChildProcess[] = [];
  const links: MdnsLink[] = [];
  let made = false;
  const stop = async (): Promise<void> => {
    for (const child of children.reverse()) await stopChild(child);
    if (made) {
      spawnSync("ip", ["netns", "del", name]);
      spawnSync("ip", ["netns", "del", peer]);
    }
  };
  try {
    run("ip", ["netns", "add", name]);
    made = true;
    run("ip", ["netns", "add", peer]);
    for (const ns of [name, peer]) run("ip", ["-n", ns, "link", "set", "lo", "up"]);
    for (let i = 0; i < (options.links ?? 1); i += 1) links.push(addLink(name, peer, i));
  } catch (error) {
    await stop();
    throw error;
  }

  const spawnIn = (namespace: string, program: string, args: string[]): ChildProcess => {
    const child = spawn("ip", ["netns", "exec", namespace, program, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    return child;
  };

  return {
    namespace: name,
    peerNamespace: peer,
    links,
    addLink() {
      const link = addLink(name, peer, links.length);
      links.push(link);
      return link;
    },
    inPeer(program, args, timeoutMs = 30_000) {
      const result = spawnSync("ip", ["netns", "exec", peer, program, ...args], { encoding: "utf8", timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
      return { status: result.status, stdout: result.stdout ?? "", stderr: result.stderr ?? "" };
    },
    spawnIn,
    async listen() {
      const child = spawnIn(peer, process.execPath, [PEER_SCRIPT, "listen", ...links.map((link) => link.peerAddress)]);
      let out = "";
      child.stdout!.on("data", (chunk) => (out += chunk));
      await eventually(() => (out.startsWith("listening\n") ? true : undefined), "the peer's listener");
      return {
        heard: () => out.split("\n").slice(1).filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as HeardPacket),
        stop: () => stopChild(child),
      };
    },
    async send(kind, count, target, fromPort) {
      const child = spawnIn(peer, process.execPath, [PEER_SCRIPT, "send", kind, String(count), target ?? "224.0.0.251", String(fromPort ?? 0)]);
      let out = "";
      child.stdout!.on("data", (chunk) => (out += chunk));
      await new Promise<void>((resolve) => child.once("exit", () => resolve()));
      return out.trim();
    },
    async relay(port) {
      const child = spawnIn(peer, process.execPath, [PEER_SCRIPT, "relay", String(port)]);
      let out = "";
      child.stdout!.on("data", (chunk) => (out += chunk));
      await eventually(() => (out.startsWith("relaying\n") ? true : undefined), "the peer's relay");
    },
    mdnsSockets: socketsOnMdnsPort,
    stop,
  };
}
