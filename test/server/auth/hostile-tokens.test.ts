// The hostile half of API-key login on a real API server: tokens are JWTs (HS256, `kid`, `exp`)
// and nothing but the exact token this server signed opens a call: not the token with bytes
// added, not a changed payload, not "alg: none", not another secret's, not an expired one nor
// one whose key went away, and not an Authorization header of absurd size. A verified token is
// remembered, but the memory keeps to `exp` and to the keys as configured now.
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { decodeProtectedHeader, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthConfig } from "../../../core/index.js";
import { AuthService } from "../../../proto/gen/proto/rpc/v1/auth_pb.js";
import { createApiKeyAuth, registerAuthService, type ApiKeyAuth } from "../../../targets/linux/server/auth/index.js";
import { createApiServer, type ApiServer } from "../../../targets/linux/server/transport/index.js";
import { grpcTransport, grpcWebTransport, readingsJson, sensorClient, sensorRoutes, tempReadings } from "../transport/sensor-fixture.js";

const keys = (config: Record<string, string>, legacy?: string[]): AuthConfig => ({
  handlers: [{ type: "api-key", config, ...(legacy ? { legacy_keys: legacy } : {}) }],
});
const keyId = "key-1";
const key = "s3cret-key-value";

interface Harness {
  server: ApiServer;
  auth: ApiKeyAuth;
  clock: { now: number };
}

async function startServer(auth: AuthConfig, options: { namesThisMachine?: (entity: string) => boolean } = {}): Promise<Harness> {
  const clock = { now: Date.UTC(2030, 0, 1) };
  const apiKeyAuth = createApiKeyAuth({ auth, now: () => clock.now, ...options });
  const server = await createApiServer({
    bindAddress: "127.0.0.1:0",
    routes(router) {
      sensorRoutes(router);
      registerAuthService(router, apiKeyAuth);
    },
    interceptors: [apiKeyAuth.interceptor],
  });
  return { server, auth: apiKeyAuth, clock };
}

function bearer(transport: Transport, authorization: string): Transport {
  const merge = (header: ConstructorParameters<typeof Headers>[0]) => {
    const merged = new Headers(header);
    merged.set("authorization", authorization);
    return merged;
  };
  return {
    unary: (method, signal, timeoutMs, header, input, contextValues) =>
      transport.unary(method, signal, timeoutMs, merge(header), input, contextValues),
    stream: (method, signal, timeoutMs, header, input, contextValues) =>
      transport.stream(method, signal, timeoutMs, merge(header), input, contextValues),
  };
}

async function login(transport: Transport, entity = keyId, payload = key): Promise<string> {
  return (await createClient(AuthService, transport).authenticate({ entity, credentials: { type: "api-key", payload } })).accessToken;
}

const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => ConnectError.from(e));
const read = (transport: Transport, token: string) => sensorClient(bearer(transport, `Bearer ${token}`)).getReadings({ name: "temp" });

describe("tokens", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer(keys({ [keyId]: key, "key-2": "another key" }));
  });
  afterAll(() => h.server.close());

  it("are JWTs signed HS256 with a key id in the header and an expiry", async () => {
    const token = await login(grpcTransport(h.server.url));
    const header = decodeProtectedHeader(token);
    expect(header).toMatchObject({ alg: "HS256", typ: "JWT" });
    expect(typeof header.kid).toBe("string");
    const claims = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString());
    expect(claims).toMatchObject({ sub: keyId, exp: Math.floor(h.clock.now / 1000) + 3600 });
  });

  for (const [protocol, transportFor] of [
    ["gRPC over HTTP/2", grpcTransport],
    ["gRPC-web over HTTP/1.1", grpcWebTransport],
  ] as const) {
    it(`${protocol}: the exact token opens calls; with any byte added or changed it is UNAUTHENTICATED`, async () => {
      const transport = transportFor(h.server.url);
      const token = await login(transport);
      expect(readingsJson(await read(transport, token))).toEqual(tempReadings);
      const [header, payload, signature] = token.split(".") as [string, string, string];
      // The signature's last character carries two unused bits: another character with the
      // same six-bit prefix decodes to the same bytes in a lenient decoder.
      const lastBits = "AQgw".indexOf(signature.at(-1)!) === -1 ? "A" : "B";
      const tampered = [
        `${token}!!`,
        `${token}=`,
        `${token}A`,
        `${token}%20`,
        `${header}.${payload}.${signature.slice(0, -1)}${lastBits}`,
        `${header}.${payload}.${signature.slice(0, -1)}`,
        `${header}.${payload}x.${signature}`,
        `${header}.${payload}`,
        `${header}..${signature}`,
      ];
      for (const bad of tampered) {
        const error = await failure(read(transport, bad));
        expect(error, bad.slice(-12)).toMatchObject({ code: Code.Unauthenticated });
      }
    });
  }

  it('"alg: none", a changed payload and another secret\'s token are UNAUTHENTICATED', async () => {
    const transport = grpcTransport(h.server.url);
    const token = await login(transport);
    const [, payload] = token.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const none = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
    const other = await new SignJWT(claims)
      .setProtectedHeader(decodeProtectedHeader(token) as { alg: string })
      .sign(new Uint8Array(32).fill(9));
    const longer = Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 365 * 24 * 3600 })).toString("base64url");
    const [header, , signature] = token.split(".");
    for (const bad of [`${none}.${payload}.`, other, `${header}.${longer}.${signature}`]) {
      expect(await failure(read(transport, bad))).toMatchObject({ code: Code.Unauthenticated });
    }
  });

  it("an Authorization header far larger than any token is UNAUTHENTICATED, and the server keeps serving", async () => {
    const transport = grpcWebTransport(h.server.url);
    const token = await login(transport);
    const error = await failure(read(transport, `${token}${"A".repeat(12_000)}`));
    expect(error).toMatchObject({ code: Code.Unauthenticated });
    expect(error?.rawMessage).toContain("too long");
    expect(readingsJson(await read(transport, token))).toEqual(tempReadings);
  });

  it("a remembered token still expires, and ends at once when its key goes", async () => {
    const transport = grpcTransport(h.server.url);
    const token = await login(transport);
    await read(transport, token);
    await read(transport, token);
    h.clock.now += 3601 * 1000;
    expect(await failure(read(transport, token))).toMatchObject({ code: Code.Unauthenticated, rawMessage: "unauthenticated: token expired" });

    const fresh = await login(transport);
    await read(transport, fresh);
    h.auth.update(keys({ "key-2": "another key" }));
    const removed = await failure(read(transport, fresh));
    expect(removed).toMatchObject({ code: Code.Unauthenticated });
    expect(removed?.rawMessage).toContain("changed or removed");
  });
});

describe("keys without an id (Viam's legacy `key` / `keys`)", () => {
  it("authenticate an entity that names this machine, alone or with its port, and nothing else", async () => {
    const names = new Set(["localhost", "robot.local"]);
    const h = await startServer(keys({}, ["legacy-secret"]), {
      namesThisMachine: (entity) => names.has(entity.replace(/:\d+$/, "")),
    });
    try {
      const transport = grpcTransport(h.server.url);
      for (const entity of ["localhost", `localhost:${h.server.port}`, "robot.local"]) {
        const token = await login(transport, entity, "legacy-secret");
        expect(readingsJson(await read(transport, token)), entity).toEqual(tempReadings);
      }
      for (const [entity, payload] of [
        ["someone-else", "legacy-secret"],
        ["localhost", "wrong"],
      ] as const) {
        expect(await failure(login(transport, entity, payload)), entity).toMatchObject({ code: Code.PermissionDenied });
      }
    } finally {
      await h.server.close();
    }
  });
});
