// svc-server advertises itself over multicast DNS, seen from another machine: the real
// svc-server runs in a network namespace of its own, linked by veths to a peer namespace where
// dig resolves it (PTR, then SRV and TXT), a listener hears what reaches the peer on port 5353,
// and curl calls the API the records lead to. dig asks the machine directly, as docs/server.md
// shows, and asks the group through the peer's relay (dig 9.18 takes answers only from the
// address it asked). The host's own network and port 5353 are never used.
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { logLines } from "../helpers/log-lines.js";
import { startMdnsNetns, type HeardPacket, type MdnsNetns, type PeerListener } from "../helpers/mdns-netns.js";
import { startSvcServer, type StartOptions, type SvcServerProcess } from "../helpers/svc-server-process.js";

/** docs/server.md, "Discovery (mDNS)": run exactly as written, from the other machine. */
const DOCUMENTED = "dig -p 5353 @192.168.1.20 _rpc._tcp.local PTR";
const RELAY_PORT = 5300;
const SERVICE = "_rpc._tcp.local";
const sensor = { name: "temp", api: "rdk:component:sensor", model: "fake" };

let net: MdnsNetns;

beforeAll(async () => {
  net = await startMdnsNetns({ tools: ["dig", "curl"] });
  await net.relay(RELAY_PORT);
});

afterAll(async () => {
  await net?.stop();
});

interface DnsRecord {
  name: string;
  type: string;
  data: string;
}

/** The records of dig's answer, from every section, names without the root's dot. */
function records(output: string): DnsRecord[] {
  return output
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith(";"))
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length >= 5)
    .map(([name, , , type, ...data]) => ({ name: name!.replace(/\.$/, ""), type: type!, data: data.join(" ").replace(/\.$/, "") }));
}

/** dig from the peer, asking `server` (an address of svc-server's, or the relay to the group). */
function dig(server: "group" | string, name: string, type: string, on: MdnsNetns = net): { status: number | null; records: DnsRecord[] } {
  const at = server === "group" ? ["-p", String(RELAY_PORT), "@127.0.0.1"] : ["-p", "5353", `@${server}`];
  const result = on.inPeer("dig", [...at, name, type, "+time=3", "+tries=1"]);
  return { status: result.status, records: records(result.stdout) };
}

/** The instance names a PTR answer lists. */
function instances(found: DnsRecord[]): string[] {
  return found.filter((r) => r.type === "PTR" && r.name === SERVICE).map((r) => r.data.slice(0, -`.${SERVICE}`.length)).sort();
}

function apiStatus(address: string): string {
  return net.inPeer("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "10", `http://${address}:8080/restart_status`]).stdout;
}

/** PTR records for `_rpc._tcp.local` in the packets svc-server sent from `address`: `[instance, ttl]`. */
function pointers(heard: HeardPacket[], address: string): Array<[string, number]> {
  return heard
    .filter((p) => p.from === address && p.port === 5353 && p.response)
    .flatMap((p) => p.records ?? [])
    .filter((r) => r.type === "PTR" && r.name === SERVICE)
    .map((r) => [String(r.data).slice(0, -`.${SERVICE}`.length), r.ttl]);
}

function start(network: Record<string, unknown>, options: StartOptions = {}, on: MdnsNetns = net): Promise<SvcServerProcess> {
  return startSvcServer({ components: [sensor], network: { bind_address: "0.0.0.0:8080", ...network } }, { netns: on.namespace, mdns: true, ...options });
}

async function withServer(
  network: Record<string, unknown>,
  options: StartOptions,
  body: (server: SvcServerProcess, listener: PeerListener) => Promise<void>,
  on: MdnsNetns = net,
): Promise<void> {
  const listener = await on.listen();
  const server = await start(network, options, on);
  try {
    await body(server, listener);
  } finally {
    await server.stop();
    await listener.stop();
  }
}

const rover = { fqdn: "rover.main-1a2b.example.com", local_fqdn: "rover.main-1a2b.local.example.com" };
const roverNames = ["rover-main-1a2b-example-com", "rover-main-1a2b-local-example-com", "rover.main-1a2b.example.com", "rover.main-1a2b.local.example.com"];
const scout = { fqdn: "scout.main-1a2b.example.com", local_fqdn: "scout.main-1a2b.local.example.com" };
const scoutNames = ["scout-main-1a2b-example-com", "scout-main-1a2b-local-example-com", "scout.main-1a2b.example.com", "scout.main-1a2b.local.example.com"];

describe("svc-server over mDNS, from another machine", () => {
  it("is found under its host name: PTR leads to SRV (the API port) and TXT (grpc, webrtc), and the API answers there", async () => {
    await withServer({}, {}, async (server) => {
      const host = hostname();
      const expected = [...new Set([host, host.replaceAll(".", "-")])].sort();
      // The documented command, as a reader types it.
      const shown = await eventually(() => {
        const result = net.inPeer("sh", ["-c", DOCUMENTED]);
        return result.status === 0 && instances(records(result.stdout)).length > 0 ? records(result.stdout) : undefined;
      }, "an answer to the documented dig");
      expect(instances(shown)).toEqual(expected);
      // Asked of the group, as a browser asks.
      expect(instances(dig("group", SERVICE, "PTR").records)).toEqual(expected);

      const srv = dig("group", `${host}.${SERVICE}`, "SRV").records.find((r) => r.type === "SRV");
      expect(srv?.data).toBe(`0 0 8080 ${host}.local`);
      const txt = dig("group", `${host}.${SERVICE}`, "TXT").records.find((r) => r.type === "TXT");
      expect(txt?.data).toBe('"grpc" "webrtc"');
      const a = dig("group", `${host}.local`, "A").records.filter((r) => r.type === "A").map((r) => r.data);
      expect(a).toEqual(["192.168.1.20"]);
      expect(apiStatus("192.168.1.20")).toBe("200");
      // Read once the event loop has taken in what svc-server wrote meanwhile (the calls above block it).
      const said = await eventually(() => logLines(server.stdout()).find((l) => l.logger === "svc.mdns" && l.msg === "advertising over mDNS"), "the log line");
      expect(said).toMatchObject({ level: "info", service: "_rpc._tcp", port: 8080, txt: ["grpc", "webrtc"] });
      expect((said?.names as string[]).slice().sort()).toEqual(expected);
    });
  });

  it("advertises fqdn and local_fqdn dotted and dashed; -webrtc=false leaves the key webrtc out", async () => {
    await withServer(rover, { args: ["-webrtc=false"] }, async () => {
      const found = await eventually(() => {
        const names = instances(dig("192.168.1.20", SERVICE, "PTR").records);
        return names.length === 4 ? names : undefined;
      }, "four instance names");
      expect(found).toEqual(roverNames);
      for (const name of roverNames) {
        expect(dig("group", `${name}.${SERVICE}`, "TXT").records.find((r) => r.type === "TXT")?.data, name).toBe('"grpc"');
        expect(dig("group", `${name}.${SERVICE}`, "SRV").records.find((r) => r.type === "SRV")?.data, name).toBe(`0 0 8080 ${name}.local`);
      }
    });
  });

  it("follows a reconfiguration with new names from the same responder: old names say goodbye, no sockets are added", async () => {
    await withServer(rover, {}, async (server, listener) => {
      await eventually(() => (instances(dig("192.168.1.20", SERVICE, "PTR").records).length === 4 ? true : undefined), "the first names");
      const pid = server.child.pid!;
      // One socket per interface with an address (lo, eth0): one responder.
      const sockets = net.mdnsSockets(pid);
      expect(sockets).toBe(2);

      server.writeConfig({ components: [sensor], network: { bind_address: "0.0.0.0:8080", ...scout } });
      const after = await eventually(() => {
        const names = instances(dig("192.168.1.20", SERVICE, "PTR").records);
        return names.join() === scoutNames.join() ? names : undefined;
      }, "the new names, and only them");
      expect(after).toEqual(scoutNames);
      const goodbyes = await eventually(() => {
        const gone = pointers(listener.heard(), "192.168.1.20").filter(([, ttl]) => ttl === 0).map(([name]) => name);
        return roverNames.every((name) => gone.includes(name)) ? gone : undefined;
      }, "a goodbye for every old name");
      expect(goodbyes.filter((name) => scoutNames.includes(name))).toEqual([]);
      expect(net.mdnsSockets(pid)).toBe(sockets);
      const said = await eventually(() => {
        const lines = logLines(server.stdout()).filter((l) => l.logger === "svc.mdns" && l.msg === "advertising over mDNS");
        return lines.length === 2 ? lines : undefined;
      }, "a log line for each set of names");
      expect(said.map((l) => (l.names as string[]).slice().sort())).toEqual([roverNames, scoutNames]);
    });
  });

  it("says goodbye for every name when it shuts down", async () => {
    const listener = await net.listen();
    const server = await start(rover);
    try {
      await eventually(() => {
        const announced = pointers(listener.heard(), "192.168.1.20").filter(([, ttl]) => ttl > 0).map(([name]) => name);
        return roverNames.every((name) => announced.includes(name)) ? true : undefined;
      }, "every name announced");
      expect(await server.stop()).toBe(0);
      await eventually(() => {
        const gone = pointers(listener.heard(), "192.168.1.20").filter(([, ttl]) => ttl === 0).map(([name]) => name);
        return roverNames.every((name) => gone.includes(name)) ? true : undefined;
      }, "a goodbye for every name");
      expect(dig("group", SERVICE, "PTR").records.filter((r) => r.type === "PTR")).toEqual([]);
    } finally {
      await server.stop();
      await listener.stop();
    }
  });

  it("with -disable-mdns holds no mDNS socket, sends nothing and answers nothing, and serves", async () => {
    await withServer(rover, { mdns: false }, async (server, listener) => {
      expect(server.child.spawnargs).toContain("-disable-mdns");
      expect(net.mdnsSockets(server.child.pid!)).toBe(0);
      expect(dig("group", SERVICE, "PTR").status).not.toBe(0);
      expect(dig("192.168.1.20", SERVICE, "PTR").status).not.toBe(0);
      expect(apiStatus("192.168.1.20")).toBe("200");
      expect(listener.heard().filter((p) => p.from.startsWith("192.168.") && p.from.endsWith(".20"))).toEqual([]);
    });
  });

  it("listening only on loopback, says why once and sends nothing to the network", async () => {
    await withServer({ bind_address: "127.0.0.1:8080", ...rover }, {}, async (server, listener) => {
      const said = await eventually(() => logLines(server.stdout()).find((l) => l.logger === "svc.mdns"), "the mDNS line");
      expect(said).toMatchObject({ level: "info", msg: "not advertising over mDNS: the API port listens only on loopback (127.0.0.1), which no other machine reaches" });
      expect(net.mdnsSockets(server.child.pid!)).toBe(0);
      expect(dig("group", SERVICE, "PTR").status).not.toBe(0);
      expect(listener.heard().filter((p) => p.from.startsWith("192.168.") && p.from.endsWith(".20"))).toEqual([]);
      expect(logLines(server.stdout()).filter((l) => l.logger === "svc.mdns")).toHaveLength(1);
    });
  });

  it("bound to one address, advertises only on the interface holding it, with that address alone", async () => {
    // Two links: eth0 (192.168.1.20) and eth1 (192.168.2.20), the peer listening on both.
    const twoLinks = await startMdnsNetns({ links: 2, tools: ["dig"] });
    try {
      await withServer({ bind_address: "192.168.2.20:8080", ...rover }, {}, async (server, listener) => {
        await eventually(() => {
          const announced = pointers(listener.heard(), "192.168.2.20").filter(([, ttl]) => ttl > 0).map(([name]) => name);
          return roverNames.every((name) => announced.includes(name)) ? true : undefined;
        }, "every name announced on eth1");
        expect(instances(dig("192.168.2.20", SERVICE, "PTR", twoLinks).records)).toEqual(roverNames);
        const fromServer = listener.heard().filter((p) => p.port === 5353 && p.from.endsWith(".20"));
        expect(fromServer.filter((p) => p.from !== "192.168.2.20")).toEqual([]);
        const addresses = fromServer.flatMap((p) => p.records ?? []).filter((r) => r.type === "A").map((r) => r.data);
        expect([...new Set(addresses)]).toEqual(["192.168.2.20"]);
        await eventually(() => logLines(server.stdout()).find((l) => l.msg === "advertising over mDNS"), "the log line");
      }, twoLinks);
    } finally {
      await twoLinks.stop();
    }
  });
});
