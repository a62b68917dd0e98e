// The hostile half of svc-server's discovery: what another machine on the link sends to port
// 5353 (packets that are not DNS, headers that lie, a name pointing at itself, a 24 KB question
// list, floods of questions to the group and to the machine) never stops svc-server, which keeps
// answering its API and mDNS; and what the responder cannot have (port 5353 held by a program that
// does not share it, no interface with an address) is said in the log while the machine serves.
// The real svc-server runs in a network namespace of its own; the host's network is never used.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { logLines } from "../helpers/log-lines.js";
import { startMdnsNetns, type MdnsNetns } from "../helpers/mdns-netns.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const SERVICE = "_rpc._tcp.local";
const PEER_SCRIPT = new URL("../helpers/mdns-peer.mjs", import.meta.url).pathname;
const names = { fqdn: "rover.main-1a2b.example.com", local_fqdn: "rover.main-1a2b.local.example.com" };
const sensor = { name: "temp", api: "rdk:component:sensor", model: "fake" };

let net: MdnsNetns;

beforeAll(async () => {
  net = await startMdnsNetns({ tools: ["dig", "curl"] });
});

afterAll(async () => {
  await net?.stop();
});

function start(on: MdnsNetns = net): Promise<SvcServerProcess> {
  return startSvcServer({ components: [sensor], network: { bind_address: "0.0.0.0:8080", ...names } }, { netns: on.namespace, mdns: true });
}

/** The instances svc-server lists when dig asks it directly. */
function advertised(): string[] {
  const result = net.inPeer("dig", ["-p", "5353", "@192.168.1.20", SERVICE, "PTR", "+time=3", "+tries=1", "+noall", "+answer"]);
  return result.stdout.split("\n").filter((line) => /\sPTR\s/.test(line)).map((line) => line.trim().split(/\s+/).pop()!);
}

function apiStatus(): string {
  return net.inPeer("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "15", "http://192.168.1.20:8080/restart_status"]).stdout;
}

/** svc-server is running, nothing was printed past its logger (stdout JSON lines, stderr its own lines), and it answers both. */
function expectServing(server: SvcServerProcess): void {
  expect(server.child.exitCode).toBe(null);
  expect(server.child.signalCode).toBe(null);
  expect(server.stdout().split("\n").filter((line) => line !== "" && !line.startsWith("{"))).toEqual([]);
  expect(server.stderr().split("\n").filter((line) => line !== "" && !line.startsWith("svc-server: "))).toEqual([]);
  expect(apiStatus()).toBe("200");
  expect(advertised()).toHaveLength(4);
}

describe("svc-server's mDNS under hostile packets", () => {
  it("takes malformed, garbage and oversize packets to the group and to itself, and answers on", async () => {
    const server = await start();
    try {
      await eventually(() => (advertised().length === 4 ? true : undefined), "the names advertised");
      for (const target of ["224.0.0.251", "192.168.1.20"]) {
        expect(await net.send("malformed", 700, target)).toBe("sent 700");
        expect(await net.send("garbage", 2000, target)).toBe("sent 2000");
        expect(await net.send("oversize", 20, target)).toBe("sent 20");
        // From port 5353, as a querier on the link asks: answered by multicast, not to the asker.
        expect(await net.send("malformed", 700, target, 5353)).toBe("sent 700");
        expect(await net.send("oversize", 20, target, 5353)).toBe("sent 20");
      }
      expectServing(server);
    } finally {
      await server.stop();
    }
  });

  it("keeps answering its API through a flood of questions, and mDNS after it", async () => {
    const server = await start();
    try {
      await eventually(() => (advertised().length === 4 ? true : undefined), "the names advertised");
      let flooding = true;
      // Questions each answered to the asker, and questions answered to the whole group, at once.
      const floods = Promise.all([net.send("query", 100_000), net.send("query", 50_000, "224.0.0.251", 5353)]).finally(() => (flooding = false));
      const statuses: string[] = [];
      do {
        statuses.push(apiStatus());
        // Lets the floods' exits be heard between calls.
        await new Promise((resolve) => setImmediate(resolve));
      } while (flooding);
      expect(await floods).toEqual(["sent 100000", "sent 50000"]);
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.filter((status) => status !== "200")).toEqual([]);
      await eventually(() => (advertised().length === 4 ? true : undefined), "mDNS answers again");
      expectServing(server);
    } finally {
      await server.stop();
    }
  });
});

describe("svc-server's mDNS when the responder cannot run", () => {
  it("says so when another program holds port 5353 without sharing it, and serves", async () => {
    const holder = net.spawnIn(net.namespace, process.execPath, [PEER_SCRIPT, "hold"]);
    let held = "";
    holder.stdout!.on("data", (chunk) => (held += chunk));
    await eventually(() => (held.includes("holding") ? true : undefined), "port 5353 held");
    const server = await start();
    try {
      const said = await eventually(() => logLines(server.stdout()).find((l) => l.logger === "svc.mdns"), "the mDNS line");
      expect(said).toMatchObject({ level: "error" });
      expect(said.msg).toMatch(/^not advertising over mDNS: UDP port 5353 cannot be opened \(.*EADDRINUSE.*\); another program holds it without sharing it$/);
      expect(net.mdnsSockets(server.child.pid!)).toBe(0);
      expect(server.child.exitCode).toBe(null);
      expect(apiStatus()).toBe("200");
    } finally {
      await server.stop();
      holder.kill("SIGTERM");
    }
  });

  it("says so when no interface has an address yet, serves, and is advertised once a link comes up", async () => {
    // A machine with loopback alone: nothing to advertise on, until a cable is plugged in.
    const alone = await startMdnsNetns({ links: 0, tools: ["curl", "dig"] });
    try {
      const server = await start(alone);
      try {
        const said = await eventually(() => logLines(server.stdout()).find((l) => l.logger === "svc.mdns" && l.level === "warn"), "the mDNS warning");
        expect(said.msg).toBe("no network interface has an address yet; the machine is advertised over mDNS on each as it gets one");
        const api = alone.spawnIn(alone.namespace, "curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "15", "http://127.0.0.1:8080/restart_status"]);
        let status = "";
        api.stdout!.on("data", (chunk) => (status += chunk));
        await new Promise((resolve) => api.once("exit", resolve));
        expect(status).toBe("200");
        expect(server.child.exitCode).toBe(null);

        const link = alone.addLink();
        // The responder looks at the interfaces every 15 s.
        await eventually(() => {
          const result = alone.inPeer("dig", ["-p", "5353", `@${link.address}`, SERVICE, "PTR", "+time=2", "+tries=1", "+noall", "+answer"]);
          return /\sPTR\s+rover-main-1a2b-example-com\._rpc\._tcp\.local\./.test(result.stdout) ? true : undefined;
        }, "the machine advertised on the new link", { timeoutMs: 45_000 });
      } finally {
        await server.stop();
      }
    } finally {
      await alone.stop();
    }
  });
});
