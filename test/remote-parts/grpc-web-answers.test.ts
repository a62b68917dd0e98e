// The gRPC-web pool reading what a peer answers, against small servers written here: a chunked
// answer written a byte at a time, `connection: close`, idle connections reused only for a while,
// no message or two, garbage, an answer cut short, a 100 KiB header line, HTTP statuses read by
// gRPC's mapping, and peers that do not speak gRPC-web (415, another content type, HTTP/2 only).
import { Code } from "@connectrpc/connect";
import http from "node:http";
import http2 from "node:http2";
import { afterAll, describe, expect, it } from "vitest";
import { notGrpcWeb } from "../../targets/linux/remote/index.js";
import { eventually } from "../helpers/eventually.js";
import { answerOf, closeHttp1Peers, echo, getReadings, grpcWebBody, listen, pool, rawServer, readings, refusal } from "./http1-peers.js";

afterAll(closeHttp1Peers);

describe("a gRPC-web pool reading what a peer answers", () => {
  it("reads a chunked answer written a byte at a time, and keeps the connection", async () => {
    const message = readings("temp");
    const body = grpcWebBody([Buffer.from("chunked answer")], "grpc-status: 0\r\ngrpc-message: \r\n");
    const chunked = Buffer.concat([
      Buffer.from("HTTP/1.1 200 OK\r\nContent-Type: application/grpc-web+proto\r\nTransfer-Encoding: chunked\r\n\r\n", "latin1"),
      Buffer.from(`3;note=split\r\n`, "latin1"),
      body.subarray(0, 3),
      Buffer.from(`\r\n${(body.length - 3).toString(16)}\r\n`, "latin1"),
      body.subarray(3),
      Buffer.from("\r\n0\r\nx-after: trailer\r\n\r\n", "latin1"),
    ]);
    const trickle = await rawServer(async ({ socket }) => {
      for (const byte of chunked) {
        socket.write(Buffer.of(byte));
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    });
    const calls = pool(trickle.url);
    expect(Buffer.from(await calls.call({ path: getReadings, message })).toString()).toBe("chunked answer");
    expect(Buffer.from(await calls.call({ path: getReadings, message })).toString()).toBe("chunked answer");
    expect(trickle.opened).toBe(1);
  });

  it("drops a connection whose answer says connection: close", async () => {
    const closing = await rawServer(echo("connection: close\r\n"));
    const calls = pool(closing.url);
    for (const text of ["a", "b"]) expect(Buffer.from(await calls.call({ path: getReadings, message: Buffer.from(text) })).toString()).toBe(text);
    expect(closing.opened).toBe(2);
    await eventually(() => (closing.closed === 2 ? true : undefined), "both connections to close");
  });

  it("uses an idle connection again only within reuseWithinMs, and closes it after", async () => {
    let now = 0;
    const served = await rawServer(echo());
    const calls = pool(served.url, { reuseWithinMs: 1_000, now: () => now });
    const text = async (message: string) => Buffer.from(await calls.call({ path: getReadings, message: Buffer.from(message) })).toString();
    expect(await text("a")).toBe("a");
    now = 1_000;
    expect(await text("b")).toBe("b");
    expect(served.opened).toBe(1);
    now = 2_001;
    expect(await text("c")).toBe("c");
    expect(served.opened).toBe(2);
    await eventually(() => (served.closed === 1 ? true : undefined), "the old connection to close");
  });

  it("refuses an answer of no message or of two (INTERNAL)", async () => {
    const counts = await rawServer((request) => {
      const messages = request.message.toString() === "none" ? [] : [Buffer.from("a"), Buffer.from("b")];
      request.socket.write(answerOf(grpcWebBody(messages, "grpc-status: 0\r\n")));
    });
    for (const text of ["none", "two"]) {
      const thrown = await refusal(pool(counts.url).call({ path: getReadings, message: Buffer.from(text) }));
      expect([thrown.code, thrown.rawMessage]).toEqual([Code.Internal, "remote test's answer is not one uncompressed gRPC message"]);
    }
  });

  it("marks garbage as not gRPC-web", async () => {
    const garbage = await rawServer(({ socket }) => socket.end(Buffer.from("\x00\x01\x02 this is no answer at all\r\n\r\n", "latin1")));
    const thrown = await refusal(pool(garbage.url).call({ path: getReadings, message: readings("temp") }));
    expect(thrown.code).toBe(Code.Unimplemented);
    expect(notGrpcWeb(thrown)).toBe(true);
  });

  it("fails a call whose answer is cut short (UNAVAILABLE), and tells no one the peer went away", async () => {
    const gone: Array<string | undefined> = [];
    const cut = await rawServer(({ socket }) => socket.end(answerOf(grpcWebBody([Buffer.alloc(64)], "grpc-status: 0\r\n")).subarray(0, 120)));
    const thrown = await refusal(pool(cut.url, { onGone: (why) => gone.push(why) }).call({ path: getReadings, message: readings("temp") }));
    expect([thrown.code, thrown.rawMessage]).toEqual([Code.Unavailable, "the call to remote test failed: the connection closed before the answer was complete"]);
    expect(notGrpcWeb(thrown)).toBe(false);
    expect(gone).toEqual([]);
  });

  it("refuses a 100 KiB header line and closes the connection", async () => {
    const huge = await rawServer(({ socket }) => socket.write(`HTTP/1.1 200 OK\r\nx-huge: ${"h".repeat(100 * 1024)}\r\n\r\n`));
    const thrown = await refusal(pool(huge.url).call({ path: getReadings, message: readings("temp") }));
    expect([thrown.code, thrown.rawMessage]).toEqual([Code.ResourceExhausted, "remote test answered a header section over 64 KiB"]);
    await eventually(() => (huge.closed === 1 ? true : undefined), "the connection to close");
  });

  it("reads an HTTP status without a gRPC one by gRPC's mapping", async () => {
    const statuses: Record<number, Code> = { 400: Code.Internal, 401: Code.Unauthenticated, 403: Code.PermissionDenied, 404: Code.Unimplemented, 429: Code.Unavailable, 503: Code.Unavailable, 500: Code.Unknown };
    const server = http.createServer((req, res) => res.writeHead(Number(req.url!.split("/")[2]), { "content-type": "text/plain" }).end("no"));
    const url = `http://127.0.0.1:${await listen(server)}`;
    for (const [status, code] of Object.entries(statuses)) {
      const thrown = await refusal(pool(url).call({ path: `/http/${status}`, message: readings("temp") }));
      expect([thrown.code, thrown.rawMessage, notGrpcWeb(thrown)]).toEqual([code, `remote test answered HTTP ${status}`, false]);
    }
  });

  it("marks as not gRPC-web a 415, a 200 of another content type, and an HTTP/2-only server", async () => {
    const http1 = http.createServer((req, res) => {
      if (req.url === "/415") res.writeHead(415).end();
      else res.writeHead(200, { "content-type": "text/html" }).end("<p>hello</p>");
    });
    const http1Url = `http://127.0.0.1:${await listen(http1)}`;
    const h2Only = http2.createServer((_req, res) => res.end());
    const h2Url = `http://127.0.0.1:${await listen(h2Only)}`;
    for (const [url, path] of [[http1Url, "/415"], [http1Url, "/html"], [h2Url, getReadings]] as const) {
      const thrown = await refusal(pool(url).call({ path, message: readings("temp") }));
      expect([thrown.code, notGrpcWeb(thrown)]).toEqual([Code.Unimplemented, true]);
    }
  });
});
