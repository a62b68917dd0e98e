// API keys in the MCU machine and its HTTP exchange on Node, on a manual clock and counted random
// bytes: tokens made of the platform's bytes and kept in a bounded table, their expiry, keys that
// change under them, keys without an id, credentials over plaintext, what happens when the
// platform gives no random bytes, a stored configuration whose auth cannot be used, and the
// body limits the exchange gives its transport before any body is read.
import { fromBinary } from "@bufbuild/protobuf";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { GetReadingsRequestSchema } from "../../proto/gen/common/v1/common_pb.js";
import { AuthenticateRequestSchema, AuthenticateResponseSchema } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { GetVersionRequestSchema } from "../../proto/gen/robot/v1/robot_pb.js";
import { createManualClock, type LogEntry, type ManualClock } from "../../core/index.js";
import { createSimBoard } from "../../hal/sim/index.js";
import { createApiKeyTable } from "../../targets/mcu/api-key-table.js";
import { MAX_CONFIG_BODY_BYTES, MAX_GRPC_WEB_BODY_BYTES } from "../../targets/mcu/body-limits.js";
import { createHttpExchange, type HttpExchange, type HttpResponse } from "../../targets/mcu/http-exchange.js";
import { createMcuMachine, type McuMachine, type McuMachineOptions } from "../../targets/mcu/mcu-machine.js";
import { parse, request } from "./grpc-web-body.js";

const sensor = { name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings: { celsius: 21.5 } } };
const keyed = (config: Record<string, string>, extra: object = {}) => ({ components: [sensor], auth: { handlers: [{ type: "api-key", config }] }, ...extra });
const loopback = "127.0.0.1";

interface Harness {
  clock: ManualClock;
  machine: McuMachine;
  http: HttpExchange;
  /** Random bytes handed out so far. */
  drawn: number;
}

let current: Harness | undefined;

afterEach(async () => {
  await current?.machine.close();
  current = undefined;
});

/** Random bytes that count up, so every token differs and a test can tell which bytes made it. */
function countingBytes(h: { drawn: number }) {
  return (count: number) => {
    const out = new Uint8Array(count);
    for (let i = 0; i < count; i++) out[i] = (h.drawn + i) & 0xff;
    h.drawn += count;
    return out;
  };
}

function harness(options: Partial<McuMachineOptions> = {}, configRoute = true): Harness {
  const h = { drawn: 0 } as Harness;
  h.clock = createManualClock(Date.UTC(2030, 0, 1));
  h.machine = createMcuMachine({
    clock: h.clock,
    random: Math.random,
    randomBytes: countingBytes(h),
    ioForBoard: () => createSimBoard().io,
    sink: { write() {} },
    ...options,
  });
  h.http = createHttpExchange({ serve: h.machine.serve, clock: h.clock, applyConfig: configRoute ? h.machine.applyConfig : undefined, auth: h.machine.auth });
  current = h;
  return h;
}

function post(h: Harness, path: string, body: Uint8Array, headers: Record<string, string> = {}, peer = loopback): Promise<HttpResponse> {
  const all: Record<string, string> = { "content-type": "application/grpc-web+proto", ...headers };
  return h.http.handle({ method: "POST", path, header: (name) => all[name], body, peer }).done;
}

async function login(h: Harness, entity: string, payload: string, peer = loopback): Promise<{ status: number; text: string; token?: string }> {
  const body = request(AuthenticateRequestSchema, { entity, credentials: { type: "api-key", payload } });
  const { message, status, text } = parse((await post(h, "/proto.rpc.v1.AuthService/Authenticate", body, {}, peer)).body);
  return { status, text, token: message && fromBinary(AuthenticateResponseSchema, message).accessToken };
}

async function read(h: Harness, token?: string, peer = loopback): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  return parse((await post(h, "/viam.component.sensor.v1.SensorService/GetReadings", request(GetReadingsRequestSchema, { name: "temp" }), headers, peer)).body);
}

function put(h: Harness, config: object | string, token?: string, peer = loopback): Promise<HttpResponse> {
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  const text = typeof config === "string" ? config : JSON.stringify(config);
  return h.http.handle({ method: "PUT", path: "/svc/config", header: (name) => headers[name], body: new TextEncoder().encode(text), peer }).done;
}

describe("tokens on the MCU", () => {
  it("are 32 of the platform's random bytes in hex, one draw per login; a call without one is UNAUTHENTICATED", async () => {
    const h = harness();
    expect(await h.machine.applyConfig(JSON.stringify(keyed({ "key-1": "k1" })))).toMatchObject({ outcome: "applied" });
    const before = h.drawn;
    const { token } = await login(h, "key-1", "k1");
    expect(h.drawn - before).toBe(32);
    expect(token).toBe(Buffer.from(Array.from({ length: 32 }, (_, i) => (before + i) & 0xff)).toString("hex"));
    expect(await read(h, token)).toMatchObject({ status: 0 });
    expect(await read(h)).toMatchObject({ status: 16 });
    expect(await login(h, "key-1", "k2")).toMatchObject({ status: 7, text: "invalid credentials" });
    expect(await login(h, "key-2", "k1")).toMatchObject({ status: 7 });
  });

  it("are kept up to the table's size: the oldest goes first when a new one is issued", async () => {
    const h = harness({ apiKeys: { maxTokens: 3 } });
    await h.machine.applyConfig(JSON.stringify(keyed({ "key-1": "k1" })));
    const tokens: string[] = [];
    for (let i = 0; i < 4; i++) tokens.push((await login(h, "key-1", "k1")).token!);
    expect(await read(h, tokens[0])).toMatchObject({ status: 16 });
    for (const token of tokens.slice(1)) expect(await read(h, token)).toMatchObject({ status: 0 });
  });

  it("expire after their time; an edit that keeps the key keeps them, one that changes the key ends them", async () => {
    const h = harness({ apiKeys: { tokenTtlMs: 60_000 } });
    await h.machine.applyConfig(JSON.stringify(keyed({ "key-1": "k1", "key-2": "k2" })));
    const first = (await login(h, "key-1", "k1")).token;
    h.clock.advance(59_999);
    expect(await read(h, first)).toMatchObject({ status: 0 });
    const second = (await login(h, "key-2", "k2")).token;
    h.clock.advance(1);
    expect(await read(h, first)).toEqual({ status: 16, text: "unauthenticated: token expired" });

    const third = (await login(h, "key-1", "k1")).token;
    // An edit elsewhere keeps both keys: their tokens go on.
    expect(await h.machine.applyConfig(JSON.stringify(keyed({ "key-1": "k1", "key-2": "k2" }, { debug: true })))).toMatchObject({ outcome: "applied" });
    expect(await read(h, third)).toMatchObject({ status: 0 });
    // key-2 rotated: its token ends; key-1's goes on.
    expect(await h.machine.applyConfig(JSON.stringify(keyed({ "key-1": "k1", "key-2": "k2-new" })))).toMatchObject({ outcome: "applied" });
    expect(await read(h, second)).toEqual({ status: 16, text: 'unauthenticated: API key "key-2" has been changed or removed; authenticate again' });
    expect(await read(h, third)).toMatchObject({ status: 0 });
  });

  it("failed logins reach the log a few a minute, with the caller's values cut short, and the rest counted", async () => {
    const lines: LogEntry[] = [];
    const h = harness({ sink: { write: (entry) => void lines.push(entry) } });
    await h.machine.applyConfig(JSON.stringify(keyed({ "key-1": "k1" })));
    for (let i = 0; i < 20; i++) expect((await login(h, `${i}-${"x".repeat(5000)}`, "wrong")).status).toBe(7);
    const refused = () => lines.filter((e) => e.logger === "svc.auth");
    expect(refused()).toHaveLength(5);
    for (const line of refused()) expect(String(line.fields.entity).length).toBeLessThan(100);
    h.clock.advance(60_000);
    await login(h, "key-1", "wrong again");
    expect(refused()).toHaveLength(6);
    expect(refused()[5]!.fields).toMatchObject({ entity: "key-1", held_back: 15 });
    const odd = await post(h, "/proto.rpc.v1.AuthService/Authenticate", request(AuthenticateRequestSchema, { entity: "key-1", credentials: { type: "t".repeat(9000), payload: "k1" } }));
    expect(parse(odd.body)).toMatchObject({ status: 3 });
    expect(parse(odd.body).text.length).toBeLessThan(200);
  });

  it("an edit the machine refuses changes no key", async () => {
    const h = harness();
    await h.machine.applyConfig(JSON.stringify(keyed({ "key-1": "k1" })));
    const token = (await login(h, "key-1", "k1")).token!;
    const refused = await put(h, { components: [sensor], auth: { handlers: [{ type: "api-key", config: { "key-1": 5 } }] } }, token);
    expect(refused.status).toBe(422);
    expect(await read(h, token)).toMatchObject({ status: 0 });
  });
});

describe("keys without an id", () => {
  it("authenticate an entity naming this machine, alone or with its port", async () => {
    const h = harness({ apiKeys: { hostNames: ["robot.local"], port: 8080 } });
    await h.machine.applyConfig(JSON.stringify({ ...keyed({ key: "legacy" }), network: { fqdn: "robot.example.com", allowed_hosts: ["10.0.0.7"] } }));
    for (const entity of ["localhost", "localhost:8080", "robot.local", "ROBOT.local.:8080", "robot.example.com", "10.0.0.7:8080"]) {
      expect((await login(h, entity, "legacy")).status, entity).toBe(0);
    }
    for (const entity of ["localhost:8081", "elsewhere.local", "", "robot.local:80:80", "http://localhost:8080"]) {
      expect((await login(h, entity, "legacy")).status, entity).toBe(7);
    }
    expect((await login(h, "localhost", "not legacy")).status).toBe(7);
  });

  it("compare in full: only the exact key matches, whatever its length or what it shares", () => {
    const table = createApiKeyTable({ handlers: [{ type: "api-key", config: { id: "abc" } }] }, () => true);
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 8 }), fc.string({ unit: "binary", maxLength: 8 }), (stored, given) => {
        const t = createApiKeyTable({ handlers: [{ type: "api-key", config: { id: stored }, legacy_keys: [stored] }] }, (e) => e === "me");
        expect(t.check("id", given) !== undefined).toBe(given === stored);
        expect(t.check("me", given) !== undefined).toBe(given === stored);
      }),
    );
    for (const given of ["", "ab", "abcd", "abC", "abc\u0000", "\u0000abc"]) expect(table.check("id", given)).toBeUndefined();
    expect(table.check("id", "abc")).toBeDefined();
  });
});

describe("credentials over plaintext", () => {
  it("are taken only from this machine itself, unless allowed", async () => {
    const h = harness();
    await h.machine.applyConfig(JSON.stringify(keyed({ "key-1": "k1" })));
    const token = (await login(h, "key-1", "k1")).token;
    for (const peer of ["::1", "127.0.0.9", "::ffff:127.0.0.1"]) expect(await read(h, token, peer), peer).toMatchObject({ status: 0 });
    for (const peer of ["192.0.2.7", "", "::ffff:192.0.2.7", "fe80::1"]) {
      expect((await login(h, "key-1", "k1", peer)).status, peer).toBe(7);
      const refused = await read(h, token, peer);
      expect(refused.status, peer).toBe(7);
      expect(refused.text).toContain("plaintext");
      expect((await put(h, keyed({ "key-1": "k1" }), token, peer)).status, peer).toBe(403);
    }

    const open = harness({ apiKeys: { allowInsecureCreds: true } });
    await open.machine.applyConfig(JSON.stringify(keyed({ "key-1": "k1" })));
    const remote = (await login(open, "key-1", "k1", "192.0.2.7")).token;
    expect(await read(open, remote, "192.0.2.7")).toMatchObject({ status: 0 });
  });
});

describe("when API keys cannot be served", () => {
  it("a configuration with keys is refused whole, naming why, and one without runs", async () => {
    const h = harness({ randomBytes: undefined });
    const refused = await h.machine.applyConfig(JSON.stringify(keyed({ "key-1": "k1" })));
    expect(refused).toMatchObject({ outcome: "refused" });
    expect(refused.reason).toMatch(/^auth\.handlers: .*random bytes/);
    expect(await h.machine.applyConfig(JSON.stringify({ components: [sensor] }))).toMatchObject({ outcome: "applied" });
    expect(await read(h)).toMatchObject({ status: 0 });
    const later = await put(h, keyed({ "key-1": "k1" }));
    expect(later.status).toBe(422);
    expect(await read(h)).toMatchObject({ status: 0 });

    const firmware = harness({ apiKeys: { unavailable: "this device serves plain HTTP and was not started with allowInsecureCreds" } });
    const plain = await firmware.machine.applyConfig(JSON.stringify(keyed({ "key-1": "k1" })));
    expect(plain.reason).toBe("auth.handlers: this device serves plain HTTP and was not started with allowInsecureCreds");
  });

  it("Authenticate is UNAVAILABLE and issues nothing when the random bytes fail", async () => {
    for (const broken of [() => new Uint8Array(31), () => { throw new Error("no entropy yet"); }]) {
      const h = harness({ randomBytes: broken });
      await h.machine.applyConfig(JSON.stringify(keyed({ "key-1": "k1" })));
      const answer = await login(h, "key-1", "k1");
      expect(answer).toMatchObject({ status: 14, token: undefined });
      expect(answer.text).toContain("random bytes");
    }
  });
});

describe("a stored configuration that asks for auth and cannot be used", () => {
  it("leaves every call and PUT refused, naming the reason, until a usable one is given by the host", async () => {
    for (const stored of [
      JSON.stringify({ components: [sensor], auth: { handlers: [{ type: "api-key", config: { "key-1": "k1" } }], tls_auth_entities: ["x"] } }),
      "{ not json",
    ]) {
      const h = harness();
      expect(await h.machine.applyConfig(stored)).toMatchObject({ outcome: "refused" });
      const call = parse((await post(h, "/viam.robot.v1.RobotService/GetVersion", request(GetVersionRequestSchema, {}))).body);
      expect(call.status).toBe(16);
      expect(call.text).toContain("the stored configuration");
      const putting = await put(h, { components: [sensor] });
      expect(putting.status).toBe(401);
      expect((await login(h, "key-1", "k1")).status).toBe(16);
      // The host's own path (flashing a configuration) is what opens it again.
      expect(await h.machine.applyConfig(JSON.stringify({ components: [sensor] }))).toMatchObject({ outcome: "applied" });
      expect(await read(h)).toMatchObject({ status: 0 });
    }
  });

  it("one without an auth section that cannot be used leaves the machine open, as it asked nothing", async () => {
    const h = harness();
    const deep = `{"components": ${"[".repeat(40)}${"]".repeat(40)}}`;
    expect(await h.machine.applyConfig(deep)).toMatchObject({ outcome: "refused" });
    expect(parse((await post(h, "/viam.robot.v1.RobotService/GetVersion", request(GetVersionRequestSchema, {}))).body).status).toBe(0);
  });
});

describe("what the exchange tells its transport before the body", () => {
  it("how much body to read: the limits for a configuration and a call, none for a refusal or a path not served", async () => {
    const h = harness();
    await h.machine.applyConfig(JSON.stringify({ components: [sensor] }));
    const head = (method: string, path: string, headers: Record<string, string> = {}) => ({ method, path, header: (name: string) => headers[name], peer: loopback });
    const grpcWeb = { "content-type": "application/grpc-web+proto" };
    expect(h.http.open(head("PUT", "/svc/config")).limit).toBe(MAX_CONFIG_BODY_BYTES);
    expect(h.http.open(head("POST", "/viam.robot.v1.RobotService/GetVersion", grpcWeb)).limit).toBe(MAX_GRPC_WEB_BODY_BYTES);
    expect(h.http.open(head("GET", "/")).limit).toBe(0);
    expect(h.http.open(head("GET", "/svc/config")).limit).toBe(0);

    await h.machine.applyConfig(JSON.stringify(keyed({ "key-1": "k1" })));
    expect(h.http.open(head("PUT", "/svc/config")).limit).toBe(0);
    expect(h.http.open(head("POST", "/viam.robot.v1.RobotService/GetVersion", grpcWeb)).limit).toBe(0);
    expect(h.http.open(head("POST", "/proto.rpc.v1.AuthService/Authenticate", grpcWeb)).limit).toBe(MAX_GRPC_WEB_BODY_BYTES);
    const refused = await h.http.open(head("PUT", "/svc/config")).finish(undefined).done;
    expect(refused.status).toBe(401);
    expect(new Map(refused.headers).get("www-authenticate")).toBe("Bearer");
  });

  it("a body past its limit, or one the transport dropped, is 413 or RESOURCE_EXHAUSTED", async () => {
    const h = harness();
    await h.machine.applyConfig(JSON.stringify({ components: [sensor] }));
    const big = await put(h, " ".repeat(MAX_CONFIG_BODY_BYTES + 1));
    expect(big.status).toBe(413);
    const call = await post(h, "/viam.robot.v1.RobotService/GetVersion", new Uint8Array(MAX_GRPC_WEB_BODY_BYTES + 1));
    expect(call.status).toBe(200);
    expect(parse(call.body)).toMatchObject({ status: 8 });
  });
});
