// mDNS traffic of an idle machine: the real svc-server in a network namespace of its own,
// advertising the four names of a cloud-managed machine (its fqdn and local fqdn, dotted and
// dashed) on a veth link, and a listener in the peer namespace counting the packets that reach it
// from svc-server's namespace on 224.0.0.251:5353 (nothing else on the link asks anything, so
// every packet is one svc-server chose to send). Start-up (probes and announcements) is counted
// on its own; once every name is announced and BENCH_MDNS_SETTLE_MS (10 s) more have passed, the
// packets of a BENCH_MDNS_WINDOW_MS window (30 s) are counted and scaled to a minute. The figure
// Viam's goutils#618 reported: ~10,000 packets a minute from the eight responders of one robot.
// Needs root (network namespaces); the host's own network and port 5353 are never used.
import { setTimeout as sleep } from "node:timers/promises";
import { eventually } from "../../test/helpers/eventually.js";
import { startMdnsNetns, type HeardPacket } from "../../test/helpers/mdns-netns.js";
import { startSvcServer } from "../../test/helpers/svc-server-process.js";
import { report } from "./report.js";

const settleMs = Number(process.env.BENCH_MDNS_SETTLE_MS ?? 10_000);
const windowMs = Number(process.env.BENCH_MDNS_WINDOW_MS ?? 30_000);
const network = { bind_address: "0.0.0.0:8080", fqdn: "rover.main-1a2b.example.com", local_fqdn: "rover.main-1a2b.local.example.com" };
const names = 4;

const net = await startMdnsNetns();
const address = net.links[0]!.address;
const fromServer = (heard: HeardPacket[]) => heard.filter((p) => p.from === address && p.port === 5353);
try {
  const listener = await net.listen();
  const server = await startSvcServer({ network }, { netns: net.namespace, mdns: true });
  try {
    await eventually(() => {
      const announced = new Set(fromServer(listener.heard()).flatMap((p) => p.records ?? []).filter((r) => r.type === "PTR" && r.ttl > 0).map((r) => r.data));
      return announced.size === names ? true : undefined;
    }, "every name announced");
    await sleep(settleMs);
    const started = fromServer(listener.heard()).length;
    await sleep(windowMs);
    const idle = fromServer(listener.heard()).length - started;
    report(`mDNS packets sent while starting, ${names} names`, started, "packets");
    report(`mDNS packets per minute from an idle machine (${windowMs / 1000} s window scaled to a minute)`, (idle * 60_000) / windowMs, "packets/min");
  } finally {
    await server.stop();
    await listener.stop();
  }
} finally {
  await net.stop();
}
