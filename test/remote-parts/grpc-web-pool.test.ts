// The gRPC-web pool svc-server calls a remote part's resources through, over HTTP/1.1: against
// real svc-server processes (plaintext, with API keys, over TLS) it answers, queues beyond its
// connections, carries statuses, credentials and deadlines, cancels and bounds; against small
// servers (http1-peers.ts) it holds a call that never comes, and tells `onGone` once when the peer
// is killed, not when an idle connection is closed. What it reads of a peer's answers is
// grpc-web-answers.test.ts.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { build } from "esbuild";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GetReadingsResponseSchema } from "../../proto/gen/common/v1/common_pb.js";
import { SensorService } from "../../proto/gen/component/sensor/v1/sensor_pb.js";
import { AuthenticateRequestSchema, AuthenticateResponseSchema } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { createGrpcWebPool, notGrpcWeb } from "../../targets/linux/remote/index.js";
import { createApiServer, type ApiServer } from "../../targets/linux/server/transport/index.js";
import { eventually } from "../helpers/eventually.js";
import { repoRoot } from "../helpers/module-fixtures.js";
import { makeSelfSignedCertificate } from "../helpers/self-signed.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";
import { closeHttp1Peers, echo, getReadings, listen, pool, rawServer, readings, refusal } from "./http1-peers.js";

const authenticate = "/proto.rpc.v1.AuthService/Authenticate";
const apiKey = "the-key-of-the-pool-test";
const sensor = { name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings: { celsius: 21.5 } } };
const celsius = (answer: Uint8Array) => fromBinary(GetReadingsResponseSchema, answer).readings.celsius?.kind;

const dir = mkdtempSync(join(tmpdir(), "svc-grpc-web-pool-"));
let plain: SvcServerProcess;
let keyed: SvcServerProcess;
let secure: SvcServerProcess;
let certFile: string;

beforeAll(async () => {
  ({ certFile } = makeSelfSignedCertificate(dir));
  const keyFile = join(dir, "key.pem");
  [plain, keyed, secure] = await Promise.all([
    startSvcServer({ components: [sensor] }),
    startSvcServer({ components: [sensor], auth: { handlers: [{ type: "api-key", config: { k1: apiKey, keys: ["k1"] } }] } }),
    startSvcServer({ components: [sensor], network: { tls_cert_file: certFile, tls_key_file: keyFile } }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([plain?.stop(), keyed?.stop(), secure?.stop(), closeHttp1Peers()]);
  rmSync(dir, { recursive: true, force: true });
});

describe("a gRPC-web pool calling svc-server", () => {
  it("answers GetReadings with the bytes of the answer message", async () => {
    const answer = await pool(plain.url).call({ path: getReadings, message: readings("temp") });
    expect(celsius(answer)).toEqual({ case: "numberValue", value: 21.5 });
  });

  it("queues calls beyond its connections, and answers them all on at most that many", async () => {
    let connections = 0;
    const proxy = net.createServer((socket) => {
      connections++;
      const upstream = net.connect(Number(new URL(plain.url).port), "127.0.0.1");
      socket.pipe(upstream).pipe(socket);
      socket.on("error", () => upstream.destroy());
      upstream.on("error", () => socket.destroy());
    });
    const port = await listen(proxy);
    const few = pool(`http://127.0.0.1:${port}`, { maxConnections: 3 });
    const answers = await Promise.all(Array.from({ length: 40 }, () => few.call({ path: getReadings, message: readings("temp") })));
    expect(answers.map(celsius)).toEqual(Array(40).fill({ case: "numberValue", value: 21.5 }));
    expect(connections).toBeLessThanOrEqual(3);
  });

  it("carries the peer's status and its decoded message", async () => {
    const thrown = await refusal(pool(plain.url).call({ path: getReadings, message: readings("nope") }));
    expect(thrown.code).toBe(Code.NotFound);
    expect(thrown.rawMessage).toBe('no rdk:component:sensor named "nope"');
    const unknown = await refusal(pool(plain.url).call({ path: `/${SensorService.typeName}/Nope`, message: readings("temp") }));
    expect(unknown.code).toBe(Code.Unimplemented);
    expect(notGrpcWeb(unknown)).toBe(false);
  });

  it("is refused without credentials, and signs in through itself to call with a token", async () => {
    const calls = pool(keyed.url);
    expect((await refusal(calls.call({ path: getReadings, message: readings("temp") }))).code).toBe(Code.Unauthenticated);
    const signIn = create(AuthenticateRequestSchema, { entity: "k1", credentials: { type: "api-key", payload: apiKey } });
    const token = fromBinary(AuthenticateResponseSchema, await calls.call({ path: authenticate, message: toBinary(AuthenticateRequestSchema, signIn) })).accessToken;
    expect(token).not.toBe("");
    const answer = await calls.call({ path: getReadings, message: readings("temp"), headers: { authorization: `Bearer ${token}` } });
    expect(celsius(answer)).toEqual({ case: "numberValue", value: 21.5 });
  });

  it("refuses an answer larger than the call allows (RESOURCE_EXHAUSTED), and goes on", async () => {
    const calls = pool(plain.url);
    const thrown = await refusal(calls.call({ path: getReadings, message: readings("temp"), maxAnswerBytes: 8 }));
    expect(thrown.code).toBe(Code.ResourceExhausted);
    expect(thrown.rawMessage).toBe("remote test answered with more than 8 bytes");
    expect(celsius(await calls.call({ path: getReadings, message: readings("temp") }))).toEqual({ case: "numberValue", value: 21.5 });
  });

  it("refuses a certificate it does not trust, with the reason", async () => {
    const calls = pool(secure.url);
    const thrown = await refusal(calls.call({ path: getReadings, message: readings("temp") }));
    expect(thrown.code).toBe(Code.Unavailable);
    expect(thrown.rawMessage).toMatch(/^remote test could not be reached: .*certificate/);
    expect(calls.failure()).toMatch(/certificate/);
  });

  it("calls over TLS when the certificate is trusted as the system's authorities are", async () => {
    const script = join(dir, "tls-call.mjs");
    await build({
      stdin: {
        contents: [
          `import { createGrpcWebPool } from "./targets/linux/remote/grpc-web-pool.js";`,
          `const calls = createGrpcWebPool({ url: process.argv[2] });`,
          `calls.call({ path: process.argv[3], message: Buffer.from(process.argv[4], "hex") }).then(`,
          `  (answer) => process.stdout.write(Buffer.from(answer).toString("hex")),`,
          `  (error) => { process.stdout.write(String(error)); process.exitCode = 1; },`,
          `).finally(() => calls.close());`,
        ].join("\n"),
        resolveDir: repoRoot,
        loader: "ts",
      },
      outfile: script,
      bundle: true,
      platform: "node",
      target: "node20",
      format: "esm",
      banner: { js: 'import { createRequire as __r } from "node:module"; const require = __r(import.meta.url);' },
      logLevel: "error",
    });
    const args = [script, secure.url, getReadings, Buffer.from(readings("temp")).toString("hex")];
    const { stdout } = await promisify(execFile)(process.execPath, args, { env: { ...process.env, NODE_EXTRA_CA_CERTS: certFile }, timeout: 20_000 });
    expect(celsius(Buffer.from(stdout, "hex"))).toEqual({ case: "numberValue", value: 21.5 });
  });
});

describe("a gRPC-web pool holding a call's deadline and cancellation", () => {
  let server: ApiServer;
  beforeAll(async () => {
    server = await createApiServer({
      bindAddress: "127.0.0.1:0",
      // A handler that never answers: only the deadline ends its calls.
      routes: (router) => router.service(SensorService, { getReadings: () => new Promise<never>(() => {}) }),
    });
  });
  afterAll(() => server?.close());

  it("passes the deadline on as grpc-timeout, which the server holds", async () => {
    const thrown = await refusal(pool(server.url).call({ path: getReadings, message: readings("slow"), timeoutMs: 200 }));
    expect(thrown.code).toBe(Code.DeadlineExceeded);
  });

  it("rejects a cancelled call CANCELED and closes its connection, which the peer sees", async () => {
    const silent = await rawServer(() => {});
    const calls = pool(silent.url);
    const cancel = new AbortController();
    const answer = calls.call({ path: getReadings, message: readings("temp"), cancel: cancel.signal });
    await eventually(() => (silent.requests.length === 1 ? true : undefined), "the request to arrive");
    cancel.abort(new ConnectError("the caller went away", Code.Canceled));
    expect((await refusal(answer)).code).toBe(Code.Canceled);
    await eventually(() => (silent.closed === 1 ? true : undefined), "the peer to see its connection close");
  });

  it("ends a call that is never answered when its own timeout cancels it", async () => {
    const silent = await rawServer(() => {});
    const thrown = await refusal(pool(silent.url).call({ path: getReadings, message: readings("temp"), cancel: AbortSignal.timeout(200) }));
    expect(thrown.code).toBe(Code.Canceled);
    await eventually(() => (silent.closed === 1 ? true : undefined), "the connection to close");
  });

  it("takes waiting calls first come first, and a cancelled one leaves the queue", async () => {
    const order = await rawServer(echo());
    const calls = pool(order.url, { maxConnections: 1 });
    const cancelled = new AbortController();
    let stop: ((reason: unknown) => void) | undefined;
    const control = { whenAborted: (listener: (reason: unknown) => void) => ((stop = listener), () => (stop = undefined)) };
    const answers = [
      calls.call({ path: getReadings, message: Buffer.from("1") }),
      calls.call({ path: getReadings, message: Buffer.from("2"), cancel: cancelled.signal }),
      calls.call({ path: getReadings, message: Buffer.from("3"), cancel: control }),
      calls.call({ path: getReadings, message: Buffer.from("4") }),
      calls.call({ path: getReadings, message: Buffer.from("5") }),
    ];
    cancelled.abort();
    stop!(new ConnectError("deadline", Code.DeadlineExceeded));
    expect((await refusal(answers[1]!)).code).toBe(Code.Canceled);
    expect((await refusal(answers[2]!)).code).toBe(Code.DeadlineExceeded);
    const answered = await Promise.all([answers[0]!, answers[3]!, answers[4]!]);
    expect(answered.map((a) => Buffer.from(a).toString())).toEqual(["1", "4", "5"]);
    expect(order.requests.map((r) => r.message.toString())).toEqual(["1", "4", "5"]);
    expect(order.opened).toBe(1);
  });

  it("fails waiting and running calls when closed, and every call after", async () => {
    const silent = await rawServer(() => {});
    const calls = createGrpcWebPool({ url: silent.url, maxConnections: 1 });
    const running = calls.call({ path: getReadings, message: readings("a") });
    const waiting = calls.call({ path: getReadings, message: readings("b") });
    await eventually(() => (silent.requests.length === 1 ? true : undefined), "the first request to arrive");
    calls.close();
    for (const answer of [running, waiting, calls.call({ path: getReadings, message: readings("c") })]) {
      const thrown = await refusal(answer);
      expect([thrown.code, thrown.rawMessage]).toEqual([Code.Unavailable, "the connection has been closed"]);
    }
    await eventually(() => (silent.closed === 1 ? true : undefined), "the connection to close");
  });
});

describe("a gRPC-web pool whose peer goes away", () => {
  it("does not take an idle connection closed by the peer for the peer going away", async () => {
    const gone: Array<string | undefined> = [];
    const hangUp = await rawServer((request) => {
      echo()(request);
      request.socket.end();
    });
    const calls = pool(hangUp.url, { onGone: (why) => gone.push(why) });
    expect(Buffer.from(await calls.call({ path: getReadings, message: Buffer.from("x") })).toString()).toBe("x");
    // The connection it checks the peer with is the second one the peer sees.
    await eventually(() => (hangUp.opened === 2 && hangUp.closed === 2 ? true : undefined), "the check of the peer");
    expect(Buffer.from(await calls.call({ path: getReadings, message: Buffer.from("y") })).toString()).toBe("y");
    expect(gone).toEqual([]);
    expect(calls.failure()).toBeUndefined();
  });

  it("tells onGone once when the peer is killed, and later calls are UNAVAILABLE", async () => {
    const doomed = await startSvcServer({ components: [sensor] });
    try {
      const gone: Array<string | undefined> = [];
      const calls = pool(doomed.url, { onGone: (why) => gone.push(why) });
      await Promise.all(Array.from({ length: 6 }, () => calls.call({ path: getReadings, message: readings("temp") })));
      expect(calls.failure()).toBeUndefined();
      await doomed.stop("SIGKILL");
      await eventually(() => (gone.length > 0 ? true : undefined), "onGone");
      for (let i = 0; i < 3; i++) {
        const thrown = await refusal(calls.call({ path: getReadings, message: readings("temp") }));
        expect([thrown.code, thrown.rawMessage]).toEqual([Code.Unavailable, "remote test could not be reached: connection refused (ECONNREFUSED)"]);
      }
      // Refused, or closed unanswered when the dying process still took the check's connection.
      expect(gone).toHaveLength(1);
      expect(gone[0] ?? "closed unanswered").toMatch(/^(connection refused \(ECONNREFUSED\)|connection reset \(ECONNRESET\)|closed unanswered)$/);
      expect(calls.failure()).toBe("connection refused (ECONNREFUSED)");
    } finally {
      await doomed.stop();
    }
  });
});
