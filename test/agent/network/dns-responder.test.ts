// The captive portal's DNS responder, asked by real resolvers on loopback: `dig` (bind9-dnsutils)
// and node's c-ares resolver; and fed malformed packets, which it must ignore without failing.
import { execFile } from "node:child_process";
import { createSocket } from "node:dgram";
import { promises as dns } from "node:dns";
import { promisify } from "node:util";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { createCollectingSink, createLogEngine } from "../../../core/index.js";
import { createNodeClock } from "../../../targets/linux/logging/index.js";
import { answerDnsPacket, createDnsResponder, type DnsResponder } from "../../../targets/linux/agent/network/portal/index.js";

const run = promisify(execFile);
const DEVICE = "127.0.0.1";

let responder: DnsResponder | undefined;
afterEach(async () => {
  await responder?.stop();
  responder = undefined;
});

async function startResponder(redirectAll: boolean): Promise<number> {
  const logger = createLogEngine({ clock: createNodeClock(), sink: createCollectingSink() }).logger("agent.portal.dns");
  responder = createDnsResponder({ host: DEVICE, port: 0, address: DEVICE, redirectAll, logger });
  return responder.start();
}

async function dig(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run("dig", [`@${DEVICE}`, "-p", String(port), "+tries=1", "+time=2", ...args]);
  return stdout;
}

/** A standard query for `name`, type A, as a stub resolver sends it. */
function query(id: number, name: string, type = 1): Buffer {
  const labels = name.split(".").flatMap((l) => [l.length, ...Buffer.from(l)]);
  return Buffer.from([id >> 8, id & 0xff, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0, ...labels, 0, type >> 8, type & 0xff, 0, 1]);
}

describe("DNS responder, redirecting every name", () => {
  it("answers dig's A query for any name with the device address and a short TTL", async () => {
    const port = await startResponder(true);
    expect((await dig(port, "anything.example", "A", "+short")).trim()).toBe(DEVICE);
    const full = await dig(port, "connectivitycheck.gstatic.com", "A");
    expect(full).toMatch(/status: NOERROR/);
    expect(full).toMatch(/flags: qr aa rd ra; QUERY: 1, ANSWER: 1/);
    expect(full).toMatch(/connectivitycheck\.gstatic\.com\.\s+5\s+IN\s+A\s+127\.0\.0\.1/);
  });

  it("answers AAAA with no record and NOERROR, so clients use the A answer", async () => {
    const port = await startResponder(true);
    const out = await dig(port, "anything.example", "AAAA");
    expect(out).toMatch(/status: NOERROR/);
    expect(out).toMatch(/ANSWER: 0/);
  });

  it("answers node's resolver pointed at it", async () => {
    const port = await startResponder(true);
    const resolver = new dns.Resolver({ timeout: 2000, tries: 1 });
    resolver.setServers([`${DEVICE}:${port}`]);
    expect(await resolver.resolve4("captive.apple.com")).toEqual([DEVICE]);
    await expect(resolver.resolve6("captive.apple.com")).rejects.toMatchObject({ code: "ENODATA" });
  });
});

describe("DNS responder, only *.setup", () => {
  it("answers names under .setup and refuses the rest", async () => {
    const port = await startResponder(false);
    expect((await dig(port, "rover.setup", "A", "+short")).trim()).toBe(DEVICE);
    expect((await dig(port, "SETUP", "A", "+short")).trim()).toBe(DEVICE);
    const other = await dig(port, "anything.example", "A");
    expect(other).toMatch(/status: REFUSED/);
    expect(other).toMatch(/ANSWER: 0/);
    expect(await dig(port, "notsetup", "A")).toMatch(/status: REFUSED/);

    const resolver = new dns.Resolver({ timeout: 2000, tries: 1 });
    resolver.setServers([`${DEVICE}:${port}`]);
    expect(await resolver.resolve4("printer.setup")).toEqual([DEVICE]);
    await expect(resolver.resolve4("example.com")).rejects.toMatchObject({ code: "EREFUSED" });
  });
});

describe("DNS responder, malformed packets", () => {
  it("never throws on random bytes, and answers only with well-formed responses", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), fc.boolean(), (bytes, redirectAll) => {
        const answer = answerDnsPacket(bytes, { address: DEVICE, redirectAll });
        if (answer) {
          expect(answer.length).toBeGreaterThanOrEqual(12);
          expect(answer[0]).toBe(bytes[0]);
          expect(answer[1]).toBe(bytes[1]);
          expect(answer[2]! & 0x80).toBe(0x80);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it("never throws on mutations of a real query (headers, lengths, pointers)", () => {
    const base = query(0x1234, "phone.example.com");
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(base.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }),
        fc.nat(base.length),
        (edits, cut) => {
          const packet = Buffer.from(base);
          for (const [at, value] of edits) packet[at] = value;
          answerDnsPacket(packet.subarray(0, Math.max(cut, 12)), { address: DEVICE, redirectAll: true });
        },
      ),
      { numRuns: 5000 },
    );
  });

  it("ignores looping and forward compression pointers, and follows a backward one", () => {
    const header = [0, 7, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0];
    const tail = [0, 1, 0, 1];
    const policy = { address: DEVICE, redirectAll: true };
    expect(answerDnsPacket(Uint8Array.from([...header, 0xc0, 12, ...tail]), policy)).toBeUndefined();
    expect(answerDnsPacket(Uint8Array.from([...header, 0xc0, 20, ...tail]), policy)).toBeUndefined();
    expect(answerDnsPacket(Uint8Array.from([...header, 1, 0x61, 0xc0, 12, ...tail]), policy)).toBeUndefined();
    // A pointer back into the header is read like any name: byte 11 is zero, the root name.
    const back = answerDnsPacket(Uint8Array.from([...header, 0xc0, 11, ...tail]), policy);
    expect(back?.[3]! & 0x0f).toBe(0);
  });

  it("keeps answering real queries while flooded with garbage", async () => {
    const port = await startResponder(true);
    const client = createSocket("udp4");
    await new Promise<void>((resolve) => client.bind(0, DEVICE, resolve));
    try {
      const garbage = fc.sample(fc.uint8Array({ maxLength: 512 }), { numRuns: 500, seed: 42 });
      for (const packet of garbage) client.send(packet, port, DEVICE);
      client.send(Buffer.alloc(0), port, DEVICE);
      const answered = new Promise<Buffer>((resolve) =>
        client.on("message", (msg) => {
          if (msg.readUInt16BE(0) === 0xbeef && msg.length > 12) resolve(msg);
        }),
      );
      // UDP may drop what overflows the socket buffer, so the real query is repeated until answered.
      const again = setInterval(() => client.send(query(0xbeef, "after.garbage"), port, DEVICE), 100);
      client.send(query(0xbeef, "after.garbage"), port, DEVICE);
      const msg = await answered.finally(() => clearInterval(again));
      expect([...msg.subarray(msg.length - 4)]).toEqual([127, 0, 0, 1]);
      expect((await dig(port, "still.alive", "A", "+short")).trim()).toBe(DEVICE);
    } finally {
      client.close();
    }
  });
});
