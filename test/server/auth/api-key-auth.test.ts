// API-key login on a real API server: the official SDK and connect clients trade a key for a
// token and call with it; calls without a valid token are refused with the codes the SDKs
// expect; keys follow reconfiguration; credentials over plaintext are accepted only from this
// machine unless allowed.
import { Code, ConnectError, createClient, type Interceptor, type Transport } from "@connectrpc/connect";
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthConfig } from "../../../core/index.js";
import { AuthService } from "../../../proto/gen/proto/rpc/v1/auth_pb.js";
import {
  authEntityKey,
  createApiKeyAuth,
  registerAuthService,
  type ApiKeyAuth,
} from "../../../targets/linux/server/auth/index.js";
import { createApiServer, peerKey, type ApiServer } from "../../../targets/linux/server/transport/index.js";
import { grpcTransport, grpcWebTransport, readingsJson, sensorClient, sensorRoutes, tempReadings } from "../transport/sensor-fixture.js";

const keys = (config: Record<string, string>): AuthConfig => ({ handlers: [{ type: "api-key", config }] });
const keyId = "key-1";
const key = "s3cret-key-value";

// Lets a test call as if from another machine: the peer is what the transport would have set.
const remotePeer: Interceptor = (next) => (req) => {
  const address = req.header.get("x-test-peer");
  if (address) req.contextValues.set(peerKey, { address, secure: req.header.get("x-test-secure") === "1" });
  return next(req);
};

interface Harness {
  server: ApiServer;
  auth: ApiKeyAuth;
  clock: { now: number };
  seenEntities: string[];
}

async function startServer(auth: AuthConfig, options: { allowInsecureCreds?: boolean; tokenTtlMs?: number } = {}): Promise<Harness> {
  const clock = { now: Date.UTC(2030, 0, 1) };
  const seenEntities: string[] = [];
  const apiKeyAuth = createApiKeyAuth({ auth, now: () => clock.now, ...options });
  const server = await createApiServer({
    bindAddress: "127.0.0.1:0",
    routes(router) {
      sensorRoutes(router);
      registerAuthService(router, apiKeyAuth);
    },
    interceptors: [
      remotePeer,
      apiKeyAuth.interceptor,
      (next) => (req) => (seenEntities.push(req.contextValues.get(authEntityKey)), next(req)),
    ],
  });
  return { server, auth: apiKeyAuth, clock, seenEntities };
}

function withHeaders(transport: Transport, headers: Record<string, string>): Transport {
  return {
    unary: (method, signal, timeoutMs, header, input, contextValues) =>
      transport.unary(method, signal, timeoutMs, merge(header, headers), input, contextValues),
    stream: (method, signal, timeoutMs, header, input, contextValues) =>
      transport.stream(method, signal, timeoutMs, merge(header, headers), input, contextValues),
  };
}

function merge(header: ConstructorParameters<typeof Headers>[0], extra: Record<string, string>): Headers {
  const merged = new Headers(header);
  for (const [name, value] of Object.entries(extra)) merged.set(name, value);
  return merged;
}

async function login(transport: Transport, entity = keyId, payload = key, type = "api-key"): Promise<string> {
  const response = await createClient(AuthService, transport).authenticate({ entity, credentials: { type, payload } });
  return response.accessToken;
}

// The SDK's dial reports "Failed to connect via all methods" with the server's error inside.
const sdkCause = (error: unknown) => {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  return Array.isArray(cause) ? cause[0] : (cause ?? error);
};

const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => ConnectError.from(e));

describe("with an api-key handler", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer(keys({ [keyId]: key, "key-2": "another key" }));
  });
  afterAll(() => h.server.close());

  it("the official SDK logs in with its API key and reads a sensor; a bad key and no key are refused", async () => {
    const robot = new VIAM.RobotClient();
    await robot.dial({
      host: `http://localhost:${h.server.port}`,
      noReconnect: true,
      credentials: { type: "api-key", payload: key, authEntity: keyId },
    });
    try {
      expect(await new VIAM.SensorClient(robot, "temp").getReadings()).toEqual(tempReadings);
    } finally {
      await robot.disconnect();
    }

    const badKey = new VIAM.RobotClient();
    const refused = await badKey
      .dial({ host: `http://localhost:${h.server.port}`, noReconnect: true, credentials: { type: "api-key", payload: "wrong", authEntity: keyId } })
      .then(() => undefined, (e: unknown) => e);
    expect(sdkCause(refused)).toMatchObject({ code: Code.PermissionDenied, rawMessage: "invalid credentials" });

    const anonymous = new VIAM.RobotClient();
    const unauthenticated = await anonymous
      .dial({ host: `http://localhost:${h.server.port}`, noReconnect: true })
      .then(() => undefined, (e: unknown) => e);
    expect(sdkCause(unauthenticated)).toMatchObject({ code: Code.Unauthenticated });
  });

  for (const [protocol, transportFor] of [
    ["gRPC over HTTP/2", grpcTransport],
    ["gRPC-web over HTTP/1.1", grpcWebTransport],
  ] as const) {
    it(`${protocol}: a token from Authenticate opens every call and names its key`, async () => {
      const transport = transportFor(h.server.url);
      const token = await login(transport);
      expect(token.split(".")).toHaveLength(3);
      h.seenEntities.length = 0;
      const sensor = sensorClient(withHeaders(transport, { authorization: `Bearer ${token}` }));
      expect(readingsJson(await sensor.getReadings({ name: "temp" }))).toEqual(tempReadings);
      expect(h.seenEntities).toEqual([keyId]);
    });

    it(`${protocol}: no token, a token of the wrong shape and a forged token are UNAUTHENTICATED`, async () => {
      const transport = transportFor(h.server.url);
      const missing = await failure(sensorClient(transport).getReadings({ name: "temp" }));
      expect(missing).toMatchObject({ code: Code.Unauthenticated });
      expect(missing?.rawMessage).toContain("authentication required");

      const token = await login(transport);
      const [header, payload, signature] = token.split(".");
      const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
      const forgedPayload = Buffer.from(JSON.stringify({ ...claims, sub: "key-2" })).toString("base64url");
      for (const [authorization, message] of [
        [`Basic ${Buffer.from(`${keyId}:${key}`).toString("base64")}`, 'expected "authorization: Bearer <token>"'],
        ["Bearer not-a-token", "unauthenticated: not a token issued by this server"],
        [`Bearer ${header}.${forgedPayload}.${signature}`, "unauthenticated: bad token signature"],
        [`Bearer ${header}.${payload}.`, "unauthenticated: bad token signature"],
      ]) {
        const error = await failure(sensorClient(withHeaders(transport, { authorization: authorization! })).getReadings({ name: "temp" }));
        expect(error, authorization).toMatchObject({ code: Code.Unauthenticated, rawMessage: message });
      }
    });
  }

  it("a wrong key, an unknown key id and a key of another id are PERMISSION_DENIED alike", async () => {
    const transport = grpcTransport(h.server.url);
    for (const [entity, payload] of [
      [keyId, "wrong"],
      [keyId, `${key}x`],
      [keyId, ""],
      ["nobody", key],
      ["key-2", key],
    ] as const) {
      const error = await failure(login(transport, entity, payload));
      expect(error, `${entity}/${payload}`).toMatchObject({ code: Code.PermissionDenied, rawMessage: "invalid credentials" });
    }
  });

  it("an unknown credential type is INVALID_ARGUMENT", async () => {
    const error = await failure(login(grpcTransport(h.server.url), keyId, key, "robot-secret"));
    expect(error).toMatchObject({ code: Code.InvalidArgument, rawMessage: 'do not know how to handle credential type "robot-secret"' });
  });

  it("a token lasts an hour by default, then is UNAUTHENTICATED", async () => {
    const transport = grpcTransport(h.server.url);
    const token = await login(transport);
    const sensor = sensorClient(withHeaders(transport, { authorization: `Bearer ${token}` }));
    h.clock.now += 59 * 60 * 1000;
    await sensor.getReadings({ name: "temp" });
    h.clock.now += 2 * 60 * 1000;
    const expired = await failure(sensor.getReadings({ name: "temp" }));
    expect(expired).toMatchObject({ code: Code.Unauthenticated, rawMessage: "unauthenticated: token expired" });
  });
});

describe("tokens and reconfiguration", () => {
  it("a token outlives an unrelated change, ends when its key changes or goes, and calls open when the handler goes", async () => {
    const h = await startServer(keys({ [keyId]: key, other: "other key" }));
    try {
      const transport = grpcTransport(h.server.url);
      const token = await login(transport);
      const sensor = sensorClient(withHeaders(transport, { authorization: `Bearer ${token}` }));

      h.auth.update(keys({ [keyId]: key, third: "third key" }));
      await sensor.getReadings({ name: "temp" });

      h.auth.update(keys({ [keyId]: "rotated key" }));
      const rotated = await failure(sensor.getReadings({ name: "temp" }));
      expect(rotated).toMatchObject({ code: Code.Unauthenticated });
      expect(rotated?.rawMessage).toContain('API key "key-1" has been changed or removed');
      const fresh = await login(transport, keyId, "rotated key");
      await sensorClient(withHeaders(transport, { authorization: `Bearer ${fresh}` })).getReadings({ name: "temp" });

      h.auth.update({ handlers: [] });
      expect(h.auth.enabled).toBe(false);
      expect(readingsJson(await sensorClient(transport).getReadings({ name: "temp" }))).toEqual(tempReadings);
    } finally {
      await h.server.close();
    }
  });

  it("a token from another server (another secret) is refused", async () => {
    const a = await startServer(keys({ [keyId]: key }));
    const b = await startServer(keys({ [keyId]: key }));
    try {
      const token = await login(grpcTransport(a.server.url));
      const error = await failure(
        sensorClient(withHeaders(grpcTransport(b.server.url), { authorization: `Bearer ${token}` })).getReadings({ name: "temp" }),
      );
      expect(error).toMatchObject({ code: Code.Unauthenticated, rawMessage: "unauthenticated: bad token signature" });
    } finally {
      await Promise.all([a.server.close(), b.server.close()]);
    }
  });

  it("the token lifetime is configurable", async () => {
    const h = await startServer(keys({ [keyId]: key }), { tokenTtlMs: 5_000 });
    try {
      const transport = grpcTransport(h.server.url);
      const sensor = sensorClient(withHeaders(transport, { authorization: `Bearer ${await login(transport)}` }));
      h.clock.now += 6_000;
      expect(await failure(sensor.getReadings({ name: "temp" }))).toMatchObject({ code: Code.Unauthenticated });
    } finally {
      await h.server.close();
    }
  });

  it("a handler with no keys accepts no key and refuses every call", async () => {
    const h = await startServer(keys({}));
    try {
      const transport = grpcTransport(h.server.url);
      expect(await failure(login(transport))).toMatchObject({ code: Code.PermissionDenied });
      expect(await failure(sensorClient(transport).getReadings({ name: "temp" }))).toMatchObject({ code: Code.Unauthenticated });
    } finally {
      await h.server.close();
    }
  });
});

describe("without handlers", () => {
  it("every call is served, and Authenticate says it has no handler for the type", async () => {
    const h = await startServer({ handlers: [] });
    try {
      const transport = grpcWebTransport(h.server.url);
      expect(readingsJson(await sensorClient(transport).getReadings({ name: "temp" }))).toEqual(tempReadings);
      expect(h.seenEntities).toEqual([""]);
      expect(await failure(login(transport))).toMatchObject({ code: Code.InvalidArgument });
    } finally {
      await h.server.close();
    }
  });
});

describe("credentials over plaintext", () => {
  const remote = { "x-test-peer": "192.0.2.10" };

  it("are refused from another machine: Authenticate and token-bearing calls are PERMISSION_DENIED", async () => {
    const h = await startServer(keys({ [keyId]: key }));
    try {
      const transport = grpcTransport(h.server.url);
      const token = await login(transport);
      const fromAfar = withHeaders(transport, remote);
      const loginError = await failure(login(fromAfar));
      expect(loginError).toMatchObject({ code: Code.PermissionDenied });
      expect(loginError?.rawMessage).toContain("credentials are not accepted over plaintext from 192.0.2.10");
      const callError = await failure(
        sensorClient(withHeaders(fromAfar, { authorization: `Bearer ${token}` })).getReadings({ name: "temp" }),
      );
      expect(callError).toMatchObject({ code: Code.PermissionDenied });
      expect(await failure(sensorClient(fromAfar).getReadings({ name: "temp" }))).toMatchObject({ code: Code.Unauthenticated });
    } finally {
      await h.server.close();
    }
  });

  it("are accepted from another machine over TLS, and over plaintext with allowInsecureCreds", async () => {
    for (const [options, headers] of [
      [{}, { ...remote, "x-test-secure": "1" }],
      [{ allowInsecureCreds: true }, remote],
    ] as const) {
      const h = await startServer(keys({ [keyId]: key }), options);
      try {
        const transport = withHeaders(grpcTransport(h.server.url), headers);
        const token = await login(transport);
        const sensor = sensorClient(withHeaders(transport, { authorization: `Bearer ${token}` }));
        expect(readingsJson(await sensor.getReadings({ name: "temp" }))).toEqual(tempReadings);
      } finally {
        await h.server.close();
      }
    }
  });
});
