// Authentication fails closed, against the real svc-server process: an auth section (or TLS
// settings) it cannot use exactly as written stops it at start (exit 1, with the path) and is an error for
// -validate; a live edit that breaks auth is refused whole and the running keys stay; a key
// removed by a live edit ends its tokens. Viam's own api-key format, legacy id-less keys
// included, works with the official SDK. With keys, an unknown method tells a caller without a
// token nothing: UNAUTHENTICATED before UNIMPLEMENTED, in every protocol.
import { EmptySchema } from "@bufbuild/protobuf/wkt";
import * as grpc from "@grpc/grpc-js";
import * as VIAM from "@viamrobotics/sdk";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SensorService } from "../../proto/gen/component/sensor/v1/sensor_pb.js";
import { AuthService } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { RobotService } from "../../proto/gen/robot/v1/robot_pb.js";
import { eventually } from "../helpers/eventually.js";
import { createGrpcJsClient, type GrpcJsClient } from "../helpers/grpc-js-client.js";
import { logLines } from "../helpers/log-lines.js";
import { runCli } from "../helpers/run-cli.js";
import { dialSdk, fullName, sdkDialCause } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const sensor = { name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings: { celsius: 22 } } };
const viamKeys = (pairs: Record<string, string>) => ({
  handlers: [{ type: "api-key", config: { ...pairs, keys: Object.keys(pairs) } }],
});
const dir = mkdtempSync(join(tmpdir(), "svc-auth-e2e-"));

beforeAll(() => {
  // The SDK reports each refused dial on console.debug; the tests look at the error itself.
  vi.spyOn(console, "debug").mockImplementation(() => {});
});
afterAll(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e as grpc.ServiceError);

/** What happened when svc-server was started with `config`: "served", or why it did not. */
async function startOutcome(config: Record<string, unknown>): Promise<string> {
  return startSvcServer({ components: [sensor], ...config }, { startTimeoutMs: 15_000 }).then(
    async (server) => {
      await server.stop();
      return "served";
    },
    (e: unknown) => String(e),
  );
}

const unusable: Array<[string, unknown, string]> = [
  ["a handler type with a typo", { handlers: [{ type: "api_key", config: { id: "key-value" } }] }, "auth.handlers[0].type"],
  ["a numeric key", { handlers: [{ type: "api-key", config: { id: 12345678 } }] }, "auth.handlers[0].config.id"],
  ['"handler" for "handlers"', { handler: [{ type: "api-key", config: { id: "key-value" } }] }, "auth.handler"],
  ["external_auth_config", { handlers: [], external_auth_config: { jwks: { keys: [{ kty: "RSA" }] } } }, "auth.external_auth_config"],
  ["tls_auth_entities", { handlers: [], tls_auth_entities: ["robot.example"] }, "auth.tls_auth_entities"],
];

describe("an auth section svc-server cannot use as written", () => {
  for (const [what, auth, path] of unusable) {
    it(`(${what}) keeps svc-server from serving: exit 1, naming ${path}`, async () => {
      const outcome = await startOutcome({ auth });
      expect(outcome).toContain("exited with 1 before serving");
      expect(outcome).toContain(path);
      expect(outcome).not.toContain("12345678");
    });
  }

  it("is an error for -validate (exit 1), with the path", () => {
    const file = join(dir, "typo.json");
    writeFileSync(file, JSON.stringify({ auth: { handler: [{ type: "api-key", config: { id: "key-value" } }] } }));
    const result = runCli("svc-server", ["-validate", "-config", file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('auth.handler: unknown key "handler"');
  });
});

describe("TLS settings svc-server cannot use as written", () => {
  for (const [given, missing] of [
    ["tls_cert_file", "tls_key_file"],
    ["tls_key_file", "tls_cert_file"],
  ]) {
    it(`(${given} without ${missing}) keep svc-server from serving plaintext instead: exit 1, naming network.${missing}`, async () => {
      const file = join(dir, `${given}.pem`);
      writeFileSync(file, "");
      const outcome = await startOutcome({ network: { bind_address: "127.0.0.1:0", [given]: file } });
      expect(outcome).toContain("exited with 1 before serving");
      expect(outcome).toContain(`network.${missing}`);
    });
  }
});

describe("Viam's api-key format", () => {
  let server: SvcServerProcess;
  beforeAll(async () => {
    server = await startSvcServer({ components: [sensor], auth: viamKeys({ "key-id": "key-value-one" }) });
  });
  afterAll(() => server?.stop());

  it("the official SDK logs in with the key id and key; without them it is refused", async () => {
    const robot = await dialSdk(server.sdkHost, { id: "key-id", key: "key-value-one" });
    try {
      expect(await new VIAM.SensorClient(robot, "temp").getReadings()).toEqual({ celsius: 22 });
    } finally {
      await robot.disconnect();
    }
    expect(sdkDialCause(await failure(dialSdk(server.sdkHost)))).toMatchObject({ code: VIAM.Code.Unauthenticated });
  });

  it("an unknown method is UNAUTHENTICATED without a token and UNIMPLEMENTED with one", async () => {
    const client = createGrpcJsClient(server.url);
    try {
      const unknown = "/viam.component.sensor.v1.SensorService/Calibrate";
      const unknownService = "/viam.service.vision.v1.VisionService/GetDetections";
      for (const path of [unknown, unknownService]) {
        expect(await failure(client.callPath(path, EmptySchema, EmptySchema, {})), path).toMatchObject({ code: grpc.status.UNAUTHENTICATED });
      }
      const { accessToken } = await client.call(AuthService.method.authenticate, {
        entity: "key-id",
        credentials: { type: "api-key", payload: "key-value-one" },
      });
      const withToken = await failure(client.callPath(unknown, EmptySchema, EmptySchema, {}, { authorization: `Bearer ${accessToken}` }));
      expect(withToken).toMatchObject({ code: grpc.status.UNIMPLEMENTED });
    } finally {
      client.close();
    }
    const grpcWeb = await fetch(`${server.url}/viam.component.sensor.v1.SensorService/Calibrate`, {
      method: "POST",
      headers: { "content-type": "application/grpc-web+proto", "x-grpc-web": "1" },
      body: new Uint8Array(5),
    });
    expect(grpcWeb.headers.get("grpc-status")).toBe(String(grpc.status.UNAUTHENTICATED));
    const connect = await fetch(`${server.url}/viam.component.sensor.v1.SensorService/Calibrate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(connect.status).toBe(401);
    expect(await connect.json()).toMatchObject({ code: "unauthenticated" });
  });
});

describe("legacy keys without an id", () => {
  it("authenticate an entity naming the machine (its URL, host:port or hostname), and no other", async () => {
    const server = await startSvcServer({ components: [sensor], auth: { handlers: [{ type: "api-key", config: { key: "legacy-secret" } }] } });
    try {
      // The SDK turns a URL given as authEntity into "host:port".
      for (const entity of [server.sdkHost, hostname()]) {
        const robot = await dialSdk(server.sdkHost, { id: entity, key: "legacy-secret" });
        try {
          expect(await new VIAM.SensorClient(robot, "temp").getReadings(), entity).toEqual({ celsius: 22 });
        } finally {
          await robot.disconnect();
        }
      }
      const wrong = await failure(dialSdk(server.sdkHost, { id: "someone", key: "legacy-secret" }));
      expect(sdkDialCause(wrong)).toMatchObject({ code: VIAM.Code.PermissionDenied });
    } finally {
      await server.stop();
    }
  });
});

describe("live edits of auth", () => {
  it("a broken auth edit is refused whole and the running keys stay; a removed key's token ends", async () => {
    const server = await startSvcServer({ components: [sensor], auth: viamKeys({ first: "first-key-value", second: "second-key-value" }) });
    const client: GrpcJsClient = createGrpcJsClient(server.url);
    try {
      const login = async (entity: string, payload: string) =>
        (await client.call(AuthService.method.authenticate, { entity, credentials: { type: "api-key", payload } })).accessToken;
      const names = (token?: string) =>
        client.call(RobotService.method.resourceNames, {}, token ? { authorization: `Bearer ${token}` } : {});
      const token = await login("first", "first-key-value");
      expect((await names(token)).resources.map(fullName)).toEqual(["rdk:component:sensor/temp"]);
      await eventually(() => logLines(server.stdout()).find((l) => l.msg === "configuration loaded"), "the first configuration");

      const seen = logLines(server.stdout()).length;
      server.writeConfig({ components: [sensor], auth: { handlers: [{ type: "api_key", config: { first: "first-key-value" } }] } });
      const refusal = await eventually(
        () => logLines(server.stdout()).slice(seen).find((l) => l.msg === "configuration refused; the machine keeps running as it was"),
        "the refusal",
      );
      expect(String(refusal.reason)).toContain("auth");
      expect((await names(token)).resources).toHaveLength(1);
      expect(await failure(names())).toMatchObject({ code: grpc.status.UNAUTHENTICATED });

      server.writeConfig({ components: [sensor], auth: viamKeys({ second: "second-key-value" }) });
      const ended = await eventually(async () => {
        const error = await failure(names(token));
        return error?.code === grpc.status.UNAUTHENTICATED ? error : undefined;
      }, "the removed key's token refused");
      expect(ended.details).toContain("changed or removed");
      expect((await names(await login("second", "second-key-value"))).resources).toHaveLength(1);
      expect(await failure(login("first", "first-key-value"))).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
    } finally {
      client.close();
      await server.stop();
    }
  });
});
