// A server stream on the API port, as binary gRPC over HTTP/2 and gRPC-web over HTTP/1.1 clients
// see it: every message in order and then the status; an error after some messages arrives
// after them with its code and message; a message past the limit ends the stream
// RESOURCE_EXHAUSTED after those before it; a client that reads slowly holds the handler back
// instead of the server buffering what it has not read; and a client that goes away ends the
// handler (its signal is aborted and its generator closed).
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BoardService } from "../../../proto/gen/component/board/v1/board_pb.js";
import { createApiServer, type ApiServer } from "../../../targets/linux/server/transport/index.js";
import { eventually } from "../../helpers/eventually.js";

const LIMIT = 256 * 1024;
const tick = (pinName: string) => ({ pinName, high: true, time: 1n });

// What the handlers did, by the name the call asked for.
const produced = new Map<string, number>();
const closed = new Map<string, Code | undefined>();

let server: ApiServer;
beforeAll(async () => {
  server = await createApiServer({
    bindAddress: "127.0.0.1:0",
    limits: { maxMessageBytes: LIMIT },
    routes(router) {
      router.service(BoardService, {
        async *streamTicks(req, context) {
          const [kind, name] = req.name.split(":");
          try {
            if (kind === "three") for (const pin of ["a", "b", "c"]) yield tick(pin);
            if (kind === "fail") {
              yield tick("a");
              yield tick("b");
              throw new ConnectError("the board came loose", Code.FailedPrecondition);
            }
            if (kind === "big") {
              yield tick("small");
              yield tick("x".repeat(LIMIT + 1));
              yield tick("never");
            }
            if (kind === "endless") {
              for (let i = 0; ; i++) {
                produced.set(name!, i + 1);
                yield tick(`${i}:${"y".repeat(64 * 1024)}`);
              }
            }
          } finally {
            closed.set(name ?? kind!, context.signal.aborted ? ConnectError.from(context.signal.reason).code : undefined);
          }
        },
      });
    },
  });
});
afterAll(() => server?.close());

const transports: Record<string, () => Transport> = {
  "gRPC over HTTP/2": () => createGrpcTransport({ baseUrl: `http://127.0.0.1:${server.port}`, readMaxBytes: 4 * LIMIT }),
  "gRPC-web over HTTP/1.1": () => createGrpcWebTransport({ baseUrl: `http://127.0.0.1:${server.port}`, httpVersion: "1.1", readMaxBytes: 4 * LIMIT }),
};

describe.each(Object.entries(transports))("a server stream, %s", (label, transport) => {
  const board = () => createClient(BoardService, transport());

  it("arrives whole and in order, then ends well", async () => {
    const pins: string[] = [];
    for await (const t of board().streamTicks({ name: "three" })) pins.push(t.pinName);
    expect(pins).toEqual(["a", "b", "c"]);
  });

  it("delivers what came before an error, then the error's code and message", async () => {
    const pins: string[] = [];
    const failed = (async () => {
      for await (const t of board().streamTicks({ name: "fail" })) pins.push(t.pinName);
    })();
    await expect(failed).rejects.toMatchObject({ code: Code.FailedPrecondition, rawMessage: "the board came loose" });
    expect(pins).toEqual(["a", "b"]);
  });

  it("ends RESOURCE_EXHAUSTED at a message past the limit, after the ones before it", async () => {
    const pins: string[] = [];
    const failed = (async () => {
      for await (const t of board().streamTicks({ name: "big" })) pins.push(t.pinName);
    })();
    await expect(failed).rejects.toMatchObject({ code: Code.ResourceExhausted });
    expect(pins).toEqual(["small"]);
  });

  it("holds the handler back while the client does not read, and ends it when the client goes away", async () => {
    const name = label.replace(/\W/g, "");
    const abort = new AbortController();
    const ticks = board().streamTicks({ name: `endless:${name}` }, { signal: abort.signal })[Symbol.asyncIterator]();
    for (let i = 0; i < 5; i++) await ticks.next();
    // The client stops reading: the handler goes on only as far as the transport's buffers take
    // (a few MB of 64 KB messages), not on and on.
    await eventually(() => {
      const before = produced.get(name)!;
      return new Promise<boolean | undefined>((resolve) => setTimeout(() => resolve(produced.get(name) === before || undefined), 200));
    }, "the handler to be held back");
    expect(produced.get(name)!).toBeLessThan(5 + 200);
    abort.abort();
    await eventually(() => closed.has(name) || undefined, "the handler to be ended");
    expect(closed.get(name)).toBe(Code.Canceled);
  });
});
