// The device's mDNS answer carries the bare TXT entry `grpc` as svc-server's does: Moddable's DNS
// serializer writes `grpc=`, and bare-txt.js rewrites each such record in the packet to `grpc`
// and an empty string, in the same bytes, leaving every other record (and the compressed names
// that point past it) as it was. Packets are made and read back with ciao's coder, the one
// svc-server advertises with.
import { DNSPacket } from "@homebridge/ciao/lib/coder/DNSPacket.js";
import { PTRRecord } from "@homebridge/ciao/lib/coder/records/PTRRecord.js";
import { SRVRecord } from "@homebridge/ciao/lib/coder/records/SRVRecord.js";
import { TXTRecord } from "@homebridge/ciao/lib/coder/records/TXTRecord.js";
import { ARecord } from "@homebridge/ciao/lib/coder/records/ARecord.js";
import { describe, expect, it } from "vitest";
import { bareTxt } from "../../targets/mcu/device/bare-txt.js";

const peer = { address: "192.168.1.1", family: "IPv4", port: 5353, size: 0 } as const;

function answer(txt: string[]): Buffer {
  const packet = DNSPacket.createDNSResponsePacketsFromRRSet({
    answers: [
      new PTRRecord("_rpc._tcp.local", "svc-mcu._rpc._tcp.local"),
      new TXTRecord("svc-mcu._rpc._tcp.local", txt.map((t) => Buffer.from(t))),
      new SRVRecord("svc-mcu._rpc._tcp.local", "svc-mcu.local", 8080),
      new ARecord("svc-mcu.local", "192.168.1.20"),
    ],
  });
  return packet.encode();
}

function read(bytes: ArrayBuffer): string[] {
  const packet = DNSPacket.decode(peer as never, Buffer.from(bytes));
  return [...packet.answers.values()].map((r) => (r instanceof TXTRecord ? `TXT ${r.txt.map((t) => JSON.stringify(t.toString())).join(" ")}` : r.asString()));
}

const copy = (b: Buffer) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

describe("the bare TXT entry of the device's mDNS answer", () => {
  it("turns `grpc=` into `grpc` and leaves the PTR, SRV and A records as they were", () => {
    const original = copy(answer(["grpc="]));
    const rewritten = bareTxt(original, "grpc");
    expect(rewritten.byteLength).toBe(original.byteLength);
    expect(read(rewritten)).toEqual(read(copy(answer(["grpc", ""]))));
    expect(read(rewritten)).toContain('TXT "grpc" ""');
    expect(read(original)).not.toEqual(read(rewritten));
  });

  it("leaves a packet without that entry byte for byte, and an entry with a value alone", () => {
    for (const txt of [["grpc"], ["grpc=1"], ["other="]]) {
      const bytes = copy(answer(txt));
      expect(Buffer.from(bareTxt(bytes, "grpc"))).toEqual(Buffer.from(bytes));
    }
  });
});
