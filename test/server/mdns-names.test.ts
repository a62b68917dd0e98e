// What svc-server's discovery decides before anything goes on the network: the instance names
// (svc-cloud's, else the configuration's, else the host name; dotted and dashed; names DNS cannot
// carry left out with the reason), where they are advertised from the address the API port
// listens on, the TXT keys, and the names following the configurations the machine takes. No
// socket is opened here: the network behaviour is in mdns-discovery.test.ts, in namespaces.
import type { NetworkInterfaceInfo } from "node:os";
import { describe, expect, it } from "vitest";
import { createCollectingSink, createLogEngine, createManualClock, type ConfigEvent, type ConfigListener } from "../../core/index.js";
import { advertisedNames, advertiseScope, followAdvertisedNames, hasNetworkAddress, rpcTxtFlags, startDiscovery } from "../../targets/linux/server/mdns/index.js";

const none = { fqdn: "", local_fqdn: "" };
const rover = { fqdn: "rover.main-1a2b.example.com", local_fqdn: "rover.main-1a2b.local.example.com" };

function info(address: string, family: "IPv4" | "IPv6", internal = false): NetworkInterfaceInfo {
  return { address, family, internal, netmask: family === "IPv4" ? "255.255.255.0" : "ffff:ffff:ffff:ffff::", mac: "00:00:00:00:00:00", cidr: null, ...(family === "IPv6" ? { scopeid: 0 } : {}) } as NetworkInterfaceInfo;
}

const interfaces = {
  lo: [info("127.0.0.1", "IPv4", true), info("::1", "IPv6", true), info("10.9.9.9", "IPv4", true)],
  eth0: [info("192.168.1.20", "IPv4"), info("fd00::20", "IPv6")],
  wlan0: [info("10.0.0.7", "IPv4")],
};

function logged() {
  const sink = createCollectingSink();
  const log = createLogEngine({ clock: createManualClock(0), sink }).logger("svc.mdns");
  return { log, lines: () => sink.entries.map((e) => ({ level: e.level, message: e.message, ...e.fields })) };
}

describe("the names advertised", () => {
  it("are the configuration's fqdn and local_fqdn, each dotted and dashed", () => {
    expect(advertisedNames({ cloud: [], network: rover }, "pi")).toEqual({
      names: ["rover.main-1a2b.example.com", "rover-main-1a2b-example-com", "rover.main-1a2b.local.example.com", "rover-main-1a2b-local-example-com"],
      refused: [],
    });
  });

  it("are svc-cloud's once it named the part, over the configuration's", () => {
    expect(advertisedNames({ cloud: ["arm.loc.cloud.example.com"], network: rover }, "pi").names).toEqual(["arm.loc.cloud.example.com", "arm-loc-cloud-example-com"]);
  });

  it("are the host name when there is no fqdn", () => {
    expect(advertisedNames({ cloud: [], network: none }, "pi").names).toEqual(["pi"]);
    expect(advertisedNames({ cloud: [], network: { fqdn: "", local_fqdn: "pi.lan" } }, "other").names).toEqual(["pi.lan", "pi-lan"]);
  });

  it("hold each name once, however it is spelt, without the root's dot", () => {
    expect(advertisedNames({ cloud: [], network: { fqdn: "Rover.Example.", local_fqdn: "rover.example" } }, "pi").names).toEqual(["Rover.Example", "Rover-Example"]);
  });

  it("leave out a name DNS cannot carry and say why, keeping the rest", () => {
    const long = `${"a".repeat(40)}.${"b".repeat(20)}.example.com`;
    const result = advertisedNames({ cloud: [], network: { fqdn: long, local_fqdn: "x..example.com" } }, "pi");
    expect(result.names).toEqual([long, "x--example-com"]);
    expect(result.refused).toEqual([
      { name: long.replaceAll(".", "-"), why: `its label "${long.replaceAll(".", "-")}" is longer than 63 bytes` },
      { name: "x..example.com", why: "it has an empty label (two dots in a row, or a leading dot)" },
    ]);
    const huge = Array.from({ length: 8 }, () => "c".repeat(30)).join(".");
    expect(advertisedNames({ cloud: [huge], network: none }, "pi").refused.map((r) => r.why)).toEqual(["with ._rpc._tcp.local it is longer than 255 bytes", `its label "${huge.replaceAll(".", "-")}" is longer than 63 bytes`]);
  });
});

describe("where the names are advertised", () => {
  it("everywhere for a wildcard address, with IPv6 records only when the port listens on IPv6", () => {
    expect(advertiseScope("::", interfaces)).toEqual({ kind: "everywhere", ipv6: true });
    expect(advertiseScope("0.0.0.0", interfaces)).toEqual({ kind: "everywhere", ipv6: false });
  });

  it("on the interface holding the one address listened on", () => {
    expect(advertiseScope("192.168.1.20", interfaces)).toEqual({ kind: "address", address: "192.168.1.20", interface: "eth0" });
    expect(advertiseScope("::ffff:10.0.0.7", interfaces)).toEqual({ kind: "address", address: "10.0.0.7", interface: "wlan0" });
    expect(advertiseScope("FD00::20", interfaces)).toEqual({ kind: "address", address: "fd00::20", interface: "eth0" });
  });

  it("nowhere for loopback, a loopback interface's address, or an address no interface holds, saying why", () => {
    expect(advertiseScope("127.0.0.1", interfaces)).toEqual({ kind: "nowhere", why: "the API port listens only on loopback (127.0.0.1), which no other machine reaches" });
    expect(advertiseScope("::1", interfaces)).toEqual({ kind: "nowhere", why: "the API port listens only on loopback (::1), which no other machine reaches" });
    expect(advertiseScope("10.9.9.9", interfaces)).toEqual({ kind: "nowhere", why: "the API port listens only on 10.9.9.9, an address of the loopback interface lo" });
    expect(advertiseScope("172.16.0.1", interfaces)).toEqual({ kind: "nowhere", why: "no network interface holds 172.16.0.1, the address the API port listens on" });
  });

  it("needs an interface other than loopback with an address to reach a network", () => {
    expect(hasNetworkAddress(interfaces)).toBe(true);
    expect(hasNetworkAddress({ lo: interfaces.lo })).toBe(false);
  });
});

describe("the TXT keys", () => {
  it("are grpc, and webrtc when WebRTC is on", () => {
    expect(rpcTxtFlags(true)).toEqual(["grpc", "webrtc"]);
    expect(rpcTxtFlags(false)).toEqual(["grpc"]);
  });
});

describe("the names followed", () => {
  function configs() {
    let listener: ConfigListener | undefined;
    let stopped = false;
    const onConfig = (l: ConfigListener) => {
      listener = l;
      return () => void (stopped = true);
    };
    const take = (network: typeof none) => listener?.({ kind: "accepted", running: { config: { network } } } as unknown as ConfigEvent);
    return { onConfig, take, stopped: () => stopped };
  }

  it("come from each configuration taken, with svc-cloud's names read each time", () => {
    const { log } = logged();
    const machine = configs();
    let cloud: string[] = [];
    const follower = followAdvertisedNames({ network: none, cloudNames: () => cloud, onConfig: machine.onConfig, hostname: () => "pi", log });
    const heard: string[][] = [];
    follower.onChange((names) => heard.push(names));
    expect(follower.current()).toEqual(["pi"]);
    machine.take(rover);
    cloud = ["arm.loc.cloud.example.com"];
    machine.take(rover);
    expect(heard).toEqual([
      ["rover.main-1a2b.example.com", "rover-main-1a2b-example-com", "rover.main-1a2b.local.example.com", "rover-main-1a2b-local-example-com"],
      ["arm.loc.cloud.example.com", "arm-loc-cloud-example-com"],
    ]);
    follower.stop();
    expect(machine.stopped()).toBe(true);
  });

  it("say a name that cannot be advertised once, not at every configuration", () => {
    const { log, lines } = logged();
    const machine = configs();
    const bad = { fqdn: "x..example.com", local_fqdn: "" };
    followAdvertisedNames({ network: bad, cloudNames: () => [], onConfig: machine.onConfig, hostname: () => "pi", log }).current();
    machine.take(bad);
    machine.take(bad);
    expect(lines().filter((l) => l.message === "cannot advertise this name over mDNS")).toEqual([
      { level: "warn", message: "cannot advertise this name over mDNS", name: "x..example.com", why: "it has an empty label (two dots in a row, or a leading dot)" },
    ]);
  });
});

describe("discovery that has nothing to advertise on", () => {
  const base = { webrtc: true, network: rover, cloudNames: () => [], onConfig: () => () => {}, clock: createManualClock(0), interfaces: () => interfaces };

  it("says once, at info, why a port on loopback is not advertised, and opens nothing", async () => {
    const { log, lines } = logged();
    const discovery = startDiscovery({ ...base, disabled: false, listening: { host: "127.0.0.1", port: 8080 }, log });
    await discovery.close();
    expect(lines()).toEqual([{ level: "info", message: "not advertising over mDNS: the API port listens only on loopback (127.0.0.1), which no other machine reaches" }]);
  });

  it("is quiet with -disable-mdns", async () => {
    const { log, lines } = logged();
    await startDiscovery({ ...base, disabled: true, listening: { host: "0.0.0.0", port: 8080 }, log }).close();
    expect(lines().filter((l) => l.level !== "debug")).toEqual([]);
  });
});
