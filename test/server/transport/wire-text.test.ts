// The two byte-level rules of the port: telling HTTP/2 from HTTP/1.1 (and both from TLS) by the
// first bytes, however they are split, and writing grpc-message so any client decodes it back to
// the same text.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeGrpcMessage } from "../../../node/rpc/grpc-message.js";
import { classifyPreface } from "../../../targets/linux/server/transport/preface-sniffer.js";

const preface = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");
const methods = ["GET", "POST", "PUT", "PATCH", "OPTIONS", "HEAD", "DELETE", "PRI"];

describe("classifyPreface", () => {
  it("waits on any prefix of the HTTP/2 preface and says h2 once it is whole", () => {
    fc.assert(
      fc.property(fc.nat(preface.length), fc.uint8Array({ maxLength: 30 }), (cut, tail) => {
        if (cut < preface.length) expect(classifyPreface(preface.subarray(0, cut))).toBeUndefined();
        expect(classifyPreface(Buffer.concat([preface, tail]))).toBe("h2");
      }),
    );
  });

  it("says HTTP/1.1 for every request line once it departs from the preface", () => {
    fc.assert(
      fc.property(fc.constantFrom(...methods), fc.webPath(), (method, path) => {
        const line = Buffer.from(`${method} /${path.replace(/^\//, "")} HTTP/1.1\r\nhost: x\r\n\r\n`, "latin1");
        expect(classifyPreface(line)).toBe("http/1.1");
      }),
    );
  });

  it("says TLS from the first byte of a handshake record, whatever follows", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 30 }), (tail) => {
        expect(classifyPreface(Buffer.concat([Buffer.from([0x16]), tail]))).toBe("tls");
      }),
    );
  });
});

describe("encodeGrpcMessage", () => {
  it("keeps printable ASCII as it is, so ':' and '/' in resource names read plainly", () => {
    expect(encodeGrpcMessage('resource "rdk:component:sensor/temp" not found')).toBe('resource "rdk:component:sensor/temp" not found');
  });

  it("writes only printable ASCII that decodes back to the message", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (message) => {
        const encoded = encodeGrpcMessage(message);
        expect(encoded).toMatch(/^[\x20-\x7e]*$/);
        expect(decodeURIComponent(encoded)).toBe(message);
      }),
    );
  });
});
