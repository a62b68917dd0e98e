// The call interceptor on the real API server, for what the SDK tests do not reach: a streaming
// call is an operation for as long as its stream runs and cancelling it ends the stream; the
// transport's own cancellation (the client giving up) cancels the operation; untracked plumbing
// is left alone; the RobotService still answers without the interceptor installed.
import { Code, ConnectError, createClient, type ConnectRouter } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-node";
import { afterEach, describe, expect, it } from "vitest";
import { createGraphEngine, createModelRegistry, type GraphEngine } from "../../../core/index.js";
import { BoardService } from "../../../proto/gen/component/board/v1/board_pb.js";
import { RobotService } from "../../../proto/gen/robot/v1/robot_pb.js";
import { createNodeClock } from "../../../targets/linux/logging/index.js";
import { createRobotApi, type RobotApi } from "../../../targets/linux/server/robot/index.js";
import { createApiServer, type ApiServer } from "../../../targets/linux/server/transport/index.js";

const STREAM_TICKS = "/viam.component.board.v1.BoardService/StreamTicks";

let server: ApiServer | undefined;
let api: RobotApi | undefined;
let engine: GraphEngine | undefined;
afterEach(async () => {
  await server?.close();
  api?.close();
  await engine?.close();
  server = api = engine = undefined;
});

/** A board whose tick stream sends one tick and then runs until the call is cancelled. */
function tickingBoard(router: ConnectRouter, seen: { aborted: boolean }): void {
  router.service(BoardService, {
    async *streamTicks(_request, context) {
      yield { pinName: "7", high: true, time: 1n };
      await new Promise<void>((resolve) => context.signal.addEventListener("abort", () => resolve()));
      seen.aborted = true;
    },
    async getGPIO(_request, context) {
      // Waits until cancelled, as a long read would.
      await new Promise<void>((resolve) => context.signal.addEventListener("abort", () => resolve()));
      seen.aborted = true;
      return { high: false };
    },
  });
}

async function start(options: { interceptor: boolean }) {
  engine = createGraphEngine({ registry: createModelRegistry(), clock: createNodeClock() });
  api = createRobotApi({ engine, version: "0.1.0", cloud: () => undefined, requestShutdown: () => {} });
  const seen = { aborted: false };
  const robotApi = api;
  server = await createApiServer({
    bindAddress: "127.0.0.1:0",
    interceptors: options.interceptor ? [robotApi.interceptor] : [],
    routes(router) {
      robotApi.routes(router);
      tickingBoard(router, seen);
    },
  });
  const transport = createGrpcWebTransport({ baseUrl: server.url, httpVersion: "1.1" });
  return { seen, robot: createClient(RobotService, transport), board: createClient(BoardService, transport) };
}

async function eventually<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const found = await probe();
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe("streaming calls", () => {
  it("are operations for as long as the stream runs, with their request; cancelling one ends the stream", async () => {
    const { seen, robot, board } = await start({ interceptor: true });
    const stream = board.streamTicks({ name: "b", pinNames: ["7", "8"] })[Symbol.asyncIterator]();
    expect((await stream.next()).value).toMatchObject({ pinName: "7", high: true });

    const { operations } = await robot.getOperations({});
    expect(operations).toHaveLength(1);
    expect(operations[0]).toMatchObject({ method: STREAM_TICKS, arguments: { name: "b", pinNames: ["7", "8"] } });

    await robot.cancelOperation({ id: operations[0]!.id });
    const end = await stream.next().catch((e: unknown) => e);
    expect(end).toBeInstanceOf(ConnectError);
    expect((end as ConnectError).code).toBe(Code.Canceled);
    expect(seen.aborted).toBe(true);
    await eventually(async () => ((await robot.getOperations({})).operations.length === 0 ? true : undefined), "the stream's operation to end");
  });
});

describe("cancellation by the transport", () => {
  it("cancels the operation when the client gives up on the call", async () => {
    const { seen, robot, board } = await start({ interceptor: true });
    const giveUp = new AbortController();
    const reading = board.getGPIO({ name: "b", pin: "7" }, { signal: giveUp.signal }).catch((e: unknown) => e);
    await eventually(async () => ((await robot.getOperations({})).operations.length === 1 ? true : undefined), "the read to start");
    giveUp.abort();
    expect(await reading).toMatchObject({ code: Code.Canceled });
    await eventually(async () => (seen.aborted ? true : undefined), "the handler to see the cancel");
    await eventually(async () => ((await robot.getOperations({})).operations.length === 0 ? true : undefined), "the operation to end");
  });
});

describe("without the interceptor", () => {
  it("the RobotService still answers, and nothing is tracked", async () => {
    const { robot, board } = await start({ interceptor: false });
    const stream = board.streamTicks({ name: "b", pinNames: ["7"] })[Symbol.asyncIterator]();
    await stream.next();
    expect((await robot.getOperations({})).operations).toEqual([]);
    expect((await robot.getVersion({})).platform).toBe("svc-server");
    await stream.return?.();
  });
});
