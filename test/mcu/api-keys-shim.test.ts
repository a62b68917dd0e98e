// API keys on the MCU, in XS behind the host shim: the official SDK trades a key for a token and
// calls with it; without a token, or with a wrong key, it is refused with the codes the SDK
// expects; a new configuration over PUT /svc/config needs a token, and one that removes a key
// ends that key's tokens at once; tokens expire on the device's clock.
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-node";
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SensorService } from "../../proto/gen/component/sensor/v1/sensor_pb.js";
import { AuthService } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { startMcuShim, type McuShim } from "../../tools/mcu-shim/mcu-shim.js";
import { dialSdk, sdkDialCause } from "../helpers/sdk-robot.js";

const keyId = "key-1";
const key = "s3cret-key-value";
const other = { id: "key-2", key: "another key" };
const sensor = { name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings: { celsius: 21.5 } } };
const withKeys = (config: Record<string, string>) => ({
  components: [sensor],
  auth: { handlers: [{ type: "api-key", config: { ...config, keys: Object.keys(config) } }] },
});
const bothKeys = withKeys({ [keyId]: key, [other.id]: other.key });

// The device's clock runs with real time plus what a test adds (an hour, to expire tokens).
let ahead = 0;
let shim: McuShim;
let transport: Transport;

beforeAll(async () => {
  shim = await startMcuShim({ config: bothKeys, configRoute: true, now: () => Date.now() + ahead });
  transport = createGrpcWebTransport({ baseUrl: shim.url, httpVersion: "1.1" });
});

afterAll(() => shim?.close());

const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => ConnectError.from(e));

function login(entity = keyId, payload = key): Promise<string> {
  return createClient(AuthService, transport)
    .authenticate({ entity, credentials: { type: "api-key", payload } })
    .then((r) => r.accessToken);
}

function readings(token?: string) {
  return createClient(SensorService, transport).getReadings({ name: "temp" }, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });
}

function putConfig(config: object, token?: string): Promise<Response> {
  return fetch(`${shim.url}/svc/config`, {
    method: "PUT",
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    body: JSON.stringify(config),
  });
}

describe("API keys on the MCU", () => {
  it("refuses the SDK without a key (UNAUTHENTICATED), with a wrong key or an unknown key id (PERMISSION_DENIED)", async () => {
    const without = await dialSdk(shim.sdkHost).then(async (robot) => (await robot.disconnect(), undefined), sdkDialCause);
    expect(without).toMatchObject({ code: VIAM.Code.Unauthenticated });
    const wrongKey = await dialSdk(shim.sdkHost, { id: keyId, key: "not the key" }).then(async (robot) => (await robot.disconnect(), undefined), sdkDialCause);
    expect(wrongKey).toMatchObject({ code: VIAM.Code.PermissionDenied });
    const unknownId = await dialSdk(shim.sdkHost, { id: "key-9", key }).then(async (robot) => (await robot.disconnect(), undefined), sdkDialCause);
    expect(unknownId).toMatchObject({ code: VIAM.Code.PermissionDenied });
  });

  it("lets the SDK in with a key, and it reads the sensor", async () => {
    const robot = await dialSdk(shim.sdkHost, { id: keyId, key });
    try {
      expect(await new VIAM.SensorClient(robot, "temp").getReadings()).toEqual({ celsius: 21.5 });
    } finally {
      await robot.disconnect();
    }
  });

  it("needs a token for every call but Authenticate, a method nobody serves included", async () => {
    expect(await failure(readings())).toMatchObject({ code: Code.Unauthenticated });
    expect((await failure(readings()))?.rawMessage).toContain("authorization: Bearer");
    const unknown = await fetch(`${shim.url}/viam.component.arm.v1.ArmService/GetEndPosition`, {
      method: "POST",
      headers: { "content-type": "application/grpc-web+proto" },
      body: new Uint8Array(5),
    });
    expect(Buffer.from(await unknown.arrayBuffer()).toString("latin1")).toContain("grpc-status: 16");
    expect(await readings(await login())).toMatchObject({ readings: { celsius: { kind: { case: "numberValue", value: 21.5 } } } });
    const refused = await failure(createClient(AuthService, transport).authenticate({ entity: keyId, credentials: { type: "oauth", payload: key } }));
    expect(refused).toMatchObject({ code: Code.InvalidArgument });
  });

  it("takes a new configuration over PUT /svc/config only with a token", async () => {
    const next = withKeys({ [keyId]: key, [other.id]: other.key });
    next.components = [{ ...sensor, attributes: { readings: { celsius: 30 } } }];
    const without = await putConfig(next);
    expect(without.status).toBe(401);
    expect(await without.text()).toContain("authorization: Bearer");
    const wrong = await putConfig(next, "0".repeat(64));
    expect(wrong.status).toBe(401);
    expect((await readings(await login())).readings.celsius?.kind).toEqual({ case: "numberValue", value: 21.5 });

    const applied = await putConfig(next, await login());
    expect(applied.status).toBe(200);
    expect(await applied.json()).toMatchObject({ outcome: "applied", modified: ["rdk:component:sensor/temp"] });
    expect((await readings(await login())).readings.celsius?.kind).toEqual({ case: "numberValue", value: 30 });
    expect(await shim.pushConfig(bothKeys)).toMatchObject({ outcome: "applied" });
  });

  it("ends a key's tokens as soon as a configuration removes it; the other key's tokens go on", async () => {
    const first = await login();
    const second = await login(other.id, other.key);
    await readings(first);
    const applied = await putConfig(withKeys({ [other.id]: other.key }), second);
    expect(await applied.json()).toMatchObject({ outcome: "applied" });
    const ended = await failure(readings(first));
    expect(ended).toMatchObject({ code: Code.Unauthenticated });
    expect(ended?.rawMessage).toContain(`API key "${keyId}" has been changed or removed`);
    expect(await failure(login())).toMatchObject({ code: Code.PermissionDenied });
    await readings(second);
    // The key comes back: its old token stays ended, a new login works.
    expect(await (await putConfig(bothKeys, second)).json()).toMatchObject({ outcome: "applied" });
    expect(await failure(readings(first))).toMatchObject({ code: Code.Unauthenticated });
    await readings(await login());
  });

  it("expires a token an hour after it was issued, on the device's clock", async () => {
    const token = await login();
    await readings(token);
    ahead += 3_601_000;
    const expired = await failure(readings(token));
    expect(expired).toMatchObject({ code: Code.Unauthenticated, rawMessage: "unauthenticated: token expired" });
    await readings(await login());
  });

  it("takes a key without an id from an entity naming the device (the SDK's host), not from another", async () => {
    expect(await shim.pushConfig({ components: [sensor], auth: { handlers: [{ type: "api-key", config: { key: "legacy-key" } }] } })).toMatchObject({
      outcome: "applied",
    });
    // The SDK names the machine by its address: "http://localhost:PORT" becomes "localhost:PORT".
    const robot = await dialSdk(shim.sdkHost, { id: shim.sdkHost, key: "legacy-key" });
    try {
      expect(await new VIAM.SensorClient(robot, "temp").getReadings()).toEqual({ celsius: 21.5 });
    } finally {
      await robot.disconnect();
    }
    expect(await failure(login(`localhost:${shim.port}`, "legacy-key"))).toBeUndefined();
    expect(await failure(login("elsewhere.example:8080", "legacy-key"))).toMatchObject({ code: Code.PermissionDenied });
    expect(await failure(login(`localhost:${shim.port + 1}`, "legacy-key"))).toMatchObject({ code: Code.PermissionDenied });
    expect(await shim.pushConfig(bothKeys)).toMatchObject({ outcome: "applied" });
  });
});
