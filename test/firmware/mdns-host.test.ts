// The device's mDNS advertisement, as another host on its link sees it. The firmware is the host
// build with the device's responder mapped in (advertising-firmware.ts): device/main.js,
// device/rpc-mdns.js and bare-txt.js on Moddable's own responder, its native DNS parser and its
// lin sockets, run in mcsim inside a network namespace of its own (test/helpers/mdns-netns.ts),
// so the firmware's multicast goes only to the peer namespace over a veth pair: never to the
// host's network or its port 5353. From the peer: avahi (avahi-peer.ts) browses and resolves it
// as a Linux desktop does, and holds the name first in the conflict case; mdns-peer.mjs hears
// every packet on port 5353; mdns-neighbour.mjs asks one question at a time and sends what no
// resolver sends; curl calls the API where the records lead.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthenticateRequestSchema } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { eventually, type EventuallyOptions } from "../helpers/eventually.js";
import { startMdnsNetns, type HeardPacket, type MdnsNetns, type PeerListener } from "../helpers/mdns-netns.js";
import { request } from "../mcu/grpc-web-body.js";
import { buildAdvertisingFirmware, type AdvertisingFirmware } from "./advertising-firmware.js";
import { startAvahiPeer, type AvahiPeer } from "./avahi-peer.js";
import { startMcsim, startXvfb, type Display, type Mcsim } from "./mcsim-host.js";

// The firmware's own name (device/main.js), so the commands docs/mcu.md shows run as written.
const NAME = "svc-mcu";
const BROWSE = "avahi-browse -rtp _rpc._tcp";
const RESOLVE = "avahi-resolve -4 -n svc-mcu.local";
const PORT = 8080;
const DEVICE = "192.168.1.20";
const SERVICE = "_rpc._tcp.local";
const NEIGHBOUR = join(import.meta.dirname, "mdns-neighbour.mjs");

let dir: string;
let firmware: AdvertisingFirmware;
let display: Display;
let net: MdnsNetns;
let homes = 0;

interface DnsRecord {
  name: string;
  type: string | number;
  data: unknown;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-firmware-mdns-"));
  // Keys allowed, so the conflict case can show a key given for the name the device claimed.
  firmware = await buildAdvertisingFirmware(dir, [`svcPort=${PORT}`, "allowInsecureCreds=true"]);
  display = await startXvfb();
  net = await startMdnsNetns({ tools: ["curl", "dig"] });
}, 600_000);

afterAll(async () => {
  await net?.stop();
  await display?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The device booted in its namespace, with the peer listening from before its first packet. */
async function boot(): Promise<{ device: Mcsim; listener: PeerListener }> {
  const listener = await net.listen();
  const device = startMcsim(firmware.so, display, join(dir, `home-${homes++}`), { netns: net.namespace, preload: firmware.preload });
  return { device, listener };
}

/** The responses the device sent from its port 5353, oldest first. */
function responses(heard: HeardPacket[]): HeardPacket[] {
  return heard.filter((p) => p.from === DEVICE && p.port === 5353 && p.response);
}

/** A response's records as name, type and data, in a stable order; `live` leaves out goodbyes (TTL 0). */
function shape(packet: HeardPacket, live = true): DnsRecord[] {
  return (packet.records ?? [])
    .filter((r) => !live || r.ttl > 0)
    .map(({ name, type, data }) => ({ name, type, data }))
    .sort((a, b) => `${a.name} ${a.type}`.localeCompare(`${b.name} ${b.type}`));
}

/** What svc-server advertises for one name, as the device must advertise `host`. */
function advertised(host: string): DnsRecord[] {
  return [
    { name: "_rpc._tcp.local", type: "PTR", data: `${host}.${SERVICE}` },
    { name: "_services._dns-sd._udp.local", type: "PTR", data: SERVICE },
    { name: `${host}._rpc._tcp.local`, type: "SRV", data: { port: PORT, target: `${host}.local` } },
    // `grpc` as a bare key, then the empty string bare-txt.js leaves of Moddable's `grpc=`: a
    // string with no key, which avahi leaves out (the avahi test reads the TXT as `"grpc"`).
    { name: `${host}._rpc._tcp.local`, type: "TXT", data: ["grpc", ""] },
    { name: `${host}.local`, type: "A", data: DEVICE },
  ].sort((a, b) => `${a.name} ${a.type}`.localeCompare(`${b.name} ${b.type}`));
}

/** The peer asks the group, from port 5353, as a querier on the link does. */
function ask(name: string, type: string): void {
  const result = net.inPeer(process.execPath, [NEIGHBOUR, "ask", name, type]);
  expect(result.stdout.trim(), result.stderr).toBe("asked");
}

/**
 * Asks for `name` and `type` until a response holds exactly `records` (a querier asks again when
 * no answer comes, RFC 6762 5.2). An answer to one question is told from the announcements, which
 * always carry all five records, by holding only the record asked for.
 */
function answered(listener: PeerListener, name: string, type: string, records: DnsRecord[], options: EventuallyOptions = {}): Promise<HeardPacket> {
  let since = 0;
  let polls = 0;
  return eventually(() => {
    if (polls++ % 40 === 0) {
      since = listener.heard().length;
      ask(name, type);
    }
    return responses(listener.heard().slice(since)).find((p) => JSON.stringify(shape(p)) === JSON.stringify(records));
  }, `an answer to ${name} ${type}`, options);
}

/** A gRPC-web call of RobotService.GetOperations from the peer: HTTP status and grpc-status. */
function callApi(address: string, port: number): { http: string; grpcStatus: string | undefined } {
  const result = net.inPeer("sh", [
    "-c",
    `printf '\\000\\000\\000\\000\\000' | curl -s -D - -o - --max-time 10 -X POST -H 'content-type: application/grpc-web+proto' --data-binary @- http://${address}:${port}/viam.robot.v1.RobotService/GetOperations`,
  ]);
  const http = /^HTTP\/1\.1 (\d+)/m.exec(result.stdout)?.[1] ?? `no answer: ${result.stderr}`;
  return { http, grpcStatus: /grpc-status: *(\d+)/i.exec(result.stdout)?.[1] };
}

/** Puts a configuration on the device from the peer, as a JSON text; the outcome it answers. */
function putConfig(config: unknown): string | undefined {
  const file = join(dir, "config.json");
  writeFileSync(file, JSON.stringify(config));
  const result = net.inPeer("curl", ["-s", "--max-time", "10", "-X", "PUT", "--data-binary", `@${file}`, `http://${DEVICE}:${PORT}/svc/config`]);
  return (JSON.parse(result.stdout || "{}") as { outcome?: string }).outcome;
}

/** Authenticate from the peer with a key given for `entity`: the call's grpc-status. */
function authenticate(entity: string, key: string): string | undefined {
  const file = join(dir, "authenticate.bin");
  writeFileSync(file, request(AuthenticateRequestSchema, { entity, credentials: { type: "api-key", payload: key } }));
  const result = net.inPeer("curl", [
    "-s", "-D", "-", "-o", "-", "--max-time", "10", "-X", "POST", "-H", "content-type: application/grpc-web+proto", "--data-binary", `@${file}`,
    `http://${DEVICE}:${PORT}/proto.rpc.v1.AuthService/Authenticate`,
  ]);
  return /grpc-status: *(\d+)/i.exec(result.stdout)?.[1];
}

/** What avahi-browse -rtp resolved, a row a service: instance, host, address, port and TXT. */
function browsed(avahi: AvahiPeer): string[][] {
  const result = avahi.run(BROWSE.split(" ")[0]!, BROWSE.split(" ").slice(1));
  return result.stdout
    .split("\n")
    .filter((line) => line.startsWith("="))
    .map((line) => line.split(";"))
    .map(([, , , instance, , , host, address, port, txt]) => [instance!, host!, address!, port!, txt!]);
}

/** What avahi-resolve answers for `name`: its address, or what it said instead. */
function resolved(avahi: AvahiPeer, command: string): string {
  const [tool, ...args] = command.split(" ");
  const result = avahi.run(tool!, args);
  return result.status === 0 ? result.stdout.trim() : `failed: ${result.stderr.trim()}`;
}

describe("svc-mcu's mDNS advertisement, seen from another host on its link", () => {
  let device: Mcsim;
  let listener: PeerListener;
  let avahi: AvahiPeer;

  beforeAll(async () => {
    avahi = await startAvahiPeer(net, join(dir, "avahi"), "svc-peer");
    ({ device, listener } = await boot());
    await device.waitFor(/svc\.mdns: advertising/);
  });

  afterAll(async () => {
    await device?.close();
    await listener?.stop();
    await avahi?.stop();
  });

  it("probes for <name>.local, then announces _rpc._tcp on the API port with the bare TXT key grpc, as svc-server does", async () => {
    expect(await device.waitFor(/svc\.mdns/)).toBe(`info svc.mdns: advertising ${NAME}.local, _rpc._tcp on port ${PORT}`);
    const announcement = await eventually(() => responses(listener.heard()).find((p) => shape(p).length > 0), "an announcement");
    expect(shape(announcement)).toEqual(advertised(NAME));
    // Before it: three probes asking for any record of the name (RFC 6762 8.1), and no answer.
    const sent = listener.heard().filter((p) => p.from === DEVICE && p.port === 5353);
    const before = sent.slice(0, sent.indexOf(announcement));
    const probes = before.filter((p) => !p.response && p.questions?.some((q) => q.name === `${NAME}.local` && q.type === 255));
    expect(probes).toHaveLength(3);
    expect(responses(before).flatMap((p) => shape(p))).toEqual([]);
    expect(callApi(DEVICE, PORT)).toEqual({ http: "200", grpcStatus: "0" });
    expect(device.lines.join("\n")).not.toMatch(/XS abort|cannot advertise/);
  });

  it("is found by avahi: browsing _rpc._tcp resolves it to its address, the API port and the TXT key grpc, and the API answers there", async () => {
    const found = await eventually(() => browsed(avahi).find(([instance]) => instance === NAME), `${BROWSE} listing ${NAME}`);
    expect(found).toEqual([NAME, `${NAME}.local`, DEVICE, String(PORT), '"grpc"']);
    expect(resolved(avahi, RESOLVE)).toBe(`${NAME}.local\t${DEVICE}`);
    expect(callApi(found[2]!, Number(found[3]))).toEqual({ http: "200", grpcStatus: "0" });
    // Asked directly from another port, as dig asks, it answers the group, where dig is not.
    const direct = net.inPeer("dig", ["-p", "5353", `@${DEVICE}`, `${NAME}.local`, "A", "+time=2", "+tries=1"]);
    expect(direct.stdout).toMatch(/timed out|no servers could be reached/);
  });

  it("answers what another host asks of the group: the name's address, the service's port", async () => {
    const a = await answered(listener, `${NAME}.local`, "A", [{ name: `${NAME}.local`, type: "A", data: DEVICE }]);
    expect(a.records?.[0]?.ttl).toBeGreaterThan(0);
    await answered(listener, `${NAME}.${SERVICE}`, "SRV", [{ name: `${NAME}.${SERVICE}`, type: "SRV", data: { port: PORT, target: `${NAME}.local` } }]);
  });

  it("takes datagrams that loop or run past their end, garbage and oversize ones, and goes on answering and serving", async () => {
    for (const target of ["224.0.0.251", DEVICE]) {
      const hostile = net.inPeer(process.execPath, [NEIGHBOUR, "hostile", "5", target]);
      expect(hostile.stdout.trim(), hostile.stderr).toBe("sent 35");
      expect(await net.send("garbage", 50, target, 5353)).toBe("sent 50");
      expect(await net.send("oversize", 3, target, 5353)).toBe("sent 3");
    }
    // lin's sockets take one datagram a socket every 20 ms: the answer waits its turn.
    await answered(listener, `${NAME}.local`, "A", [{ name: `${NAME}.local`, type: "A", data: DEVICE }], { timeoutMs: 60_000 });
    expect(callApi(DEVICE, PORT)).toEqual({ http: "200", grpcStatus: "0" });
    expect(device.lines.join("\n")).not.toMatch(/XS abort|mcsim exited/);
  });
});

describe("svc-mcu's mDNS name taken by another host", () => {
  it("probes, hears the other host's answer, and claims <name>-2.local instead, where avahi finds it and a key given for that name is good", async () => {
    // avahi-daemon holds svc-mcu.local first, as another machine of that name would.
    const avahi = await startAvahiPeer(net, join(dir, "avahi-owner"), NAME);
    const { device, listener } = await boot();
    try {
      expect(await device.waitFor(/svc\.mdns/)).toBe(`info svc.mdns: advertising ${NAME}-2.local, _rpc._tcp on port ${PORT}`);
      expect(device.lines).toContain(`probe conflict with ${net.links[0]!.peerAddress}`);
      const announcement = await eventually(() => responses(listener.heard()).find((p) => shape(p).length > 0), "an announcement");
      expect(shape(announcement)).toEqual(advertised(`${NAME}-2`));
      const claimed = responses(listener.heard()).flatMap((p) => shape(p)).filter((r) => r.name === `${NAME}.local` || r.name === `${NAME}.${SERVICE}`);
      expect(claimed).toEqual([]);
      const found = await eventually(() => browsed(avahi).find(([instance]) => instance === `${NAME}-2`), "the new name browsed");
      expect(found).toEqual([`${NAME}-2`, `${NAME}-2.local`, DEVICE, String(PORT), '"grpc"']);
      expect(resolved(avahi, RESOLVE)).toBe(`${NAME}.local\t${net.links[0]!.peerAddress}`);
      expect(resolved(avahi, `avahi-resolve -4 -n ${NAME}-2.local`)).toBe(`${NAME}-2.local\t${DEVICE}`);
      expect(callApi(DEVICE, PORT)).toEqual({ http: "200", grpcStatus: "0" });
      // A key without an id is good for an entity naming the device: the name it claimed too.
      expect(putConfig({ auth: { handlers: [{ type: "api-key", config: { key: "claimed-name-key" } }] } })).toBe("applied");
      expect(authenticate(`${NAME}-2.local`, "claimed-name-key")).toBe("0");
      expect(authenticate(`${NAME}-2`, "claimed-name-key")).toBe("0");
      expect(authenticate("someone-else.local", "claimed-name-key")).not.toBe("0");
    } finally {
      await device.close();
      await listener.stop();
      await avahi.stop();
    }
  });
});
