// The hostile half of the MCU target, in XS behind the host shim, over plain HTTP/1.1 as any
// client on the network could speak it: calls without a token, with a wrong, tampered or absurd
// one; bodies past their limits (answered while the client is still sending, so nothing past the
// limit is kept); gRPC-web frames that are not one message; and a configuration PUT that would
// drop the auth section without a token. After each the machine still serves the right caller.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GetReadingsRequestSchema } from "../../proto/gen/common/v1/common_pb.js";
import { MAX_CONFIG_BODY_BYTES, MAX_GRPC_WEB_BODY_BYTES } from "../../targets/mcu/body-limits.js";
import { startMcuShim, type McuShim } from "../../tools/mcu-shim/mcu-shim.js";
import { frame, parse, request } from "./grpc-web-body.js";
import { grpcWeb, key, keyedCalls, keyedConfig as config, keyedSensor as sensor, keyId, readingsPath, type Answer } from "./keyed-device.js";

let shim: McuShim;

beforeAll(async () => {
  shim = await startMcuShim({ config, configRoute: true });
});

afterAll(() => shim?.close());

const calls = keyedCalls(() => shim.url);
const { call, read } = calls;

/** A token for the key; the Authenticate call must succeed. */
async function login(): Promise<string> {
  const { status, token } = await calls.login();
  expect(status).toBe(0);
  return token;
}

/**
 * Sends a body that never ends (chunked, `chunk` after `chunk`) until an answer comes, and
 * resolves with it. An answer at all proves the limit was checked while the body was still
 * coming in; `sent` says how much had gone out by then.
 */
function sendUntilAnswered(method: string, path: string, headers: Record<string, string>, chunk: Uint8Array, cap = 64 * 1024 * 1024) {
  return new Promise<Answer & { sent: number }>((resolve, reject) => {
    const req = http.request(`${shim.url}${path}`, { method, headers });
    let sent = 0;
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on("data", (part: Buffer) => parts.push(part));
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: new Uint8Array(Buffer.concat(parts)), sent });
      });
    });
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    const pump = () => {
      while (!answered) {
        if (sent >= cap) return reject(new Error(`no answer after ${sent} bytes`));
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
    };
    pump();
  });
}

describe("tokens on the MCU, as a hostile client sends them", () => {
  it("no token, a wrong one, a tampered one and an absurd header are UNAUTHENTICATED; the exact token still reads", async () => {
    const token = await login();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const flipped = `${token.slice(0, 10)}${token[10] === "0" ? "1" : "0"}${token.slice(11)}`;
    for (const bad of [
      undefined,
      "",
      "Bearer",
      `Bearer ${"0".repeat(64)}`,
      `Bearer ${flipped}`,
      `Bearer ${token}0`,
      `Bearer ${token.slice(0, -1)}`,
      `Bearer ${token.toUpperCase()}`,
      `Bearer  ${token}`,
      `bearer ${token}`,
      token,
      `Basic ${Buffer.from(`${keyId}:${key}`).toString("base64")}`,
      `Bearer ${token}${"A".repeat(12_000)}`,
    ]) {
      const answer = await read(bad);
      expect(answer.status, String(bad).slice(0, 80)).toBe(16);
    }
    expect(await read(`Bearer ${token}`)).toMatchObject({ status: 0, celsius: 21.5 });
  });

  it("answers UNAUTHENTICATED before anything else without a token: unknown methods, malformed frames", async () => {
    for (const [path, body] of [
      ["/viam.component.arm.v1.ArmService/MoveToPosition", frame(new Uint8Array())],
      ["/viam.robot.v1.RobotService/Shutdown", frame(new Uint8Array())],
      [readingsPath, new Uint8Array([0x80, 0, 0, 0, 0])],
      [readingsPath, new Uint8Array([1, 2, 3])],
    ] as const) {
      expect(parse((await call(path, body)).body).status, path).toBe(16);
    }
  });
});

describe("gRPC-web frames that are not one message, with a token", () => {
  it("are refused with their codes, and the machine keeps serving", async () => {
    const token = `Bearer ${await login()}`;
    const message = request(GetReadingsRequestSchema, { name: "temp" }).subarray(5);
    const cases: Array<[string, Uint8Array, number]> = [
      ["empty", new Uint8Array(), 3],
      ["shorter than a frame header", new Uint8Array([0, 0, 0]), 3],
      ["length past the body", new Uint8Array([0, 0, 0, 0, 200, 1, 2]), 3],
      ["length short of the body", new Uint8Array([...frame(message).subarray(0, 4), message.length - 1, ...message]), 3],
      ["a trailer frame", frame(message, 0x80), 3],
      ["compressed", frame(message, 1), 12],
      ["two messages", new Uint8Array([...frame(message), ...frame(message)]), 3],
      ["not the request message", frame(new Uint8Array([0x0a, 0x7f, 0x61])), 3],
      ["a length of 4 GiB", new Uint8Array([0, 0xff, 0xff, 0xff, 0xff, 1]), 3],
    ];
    for (const [what, body, code] of cases) {
      expect(parse((await call(readingsPath, body, { authorization: token })).body).status, what).toBe(code);
    }
    expect(await read(token)).toMatchObject({ status: 0, celsius: 21.5 });
  });
});

describe("bodies past their limits", () => {
  it("a gRPC-web body past its limit is RESOURCE_EXHAUSTED, answered while it is still being sent", async () => {
    const token = `Bearer ${await login()}`;
    const answer = await sendUntilAnswered("POST", readingsPath, { ...grpcWeb, authorization: token }, new Uint8Array(4096));
    expect(answer.status).toBe(200);
    expect(parse(answer.body)).toMatchObject({ status: 8 });
    expect(parse(answer.body).text).toContain(`${MAX_GRPC_WEB_BODY_BYTES} bytes`);
    // One byte under the limit is read in full (and refused only as the frame it is not).
    const under = await call(readingsPath, new Uint8Array(MAX_GRPC_WEB_BODY_BYTES), { authorization: token });
    expect(parse(under.body).status).toBe(3);
    expect(await read(token)).toMatchObject({ status: 0, celsius: 21.5 });
  });

  it("a configuration past its limit is 413, answered while it is still being sent, or at once when its length says so", async () => {
    const token = `Bearer ${await login()}`;
    const answer = await sendUntilAnswered("PUT", "/svc/config", { authorization: token }, new TextEncoder().encode(" ".repeat(4096)));
    expect(answer.status).toBe(413);
    expect(Buffer.from(answer.body).toString()).toContain(`${MAX_CONFIG_BODY_BYTES} bytes`);
    const declared = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${shim.url}/svc/config`, { method: "PUT", headers: { authorization: token, "content-length": String(MAX_CONFIG_BODY_BYTES + 1) } });
      req.on("response", (res) => {
        res.resume();
        req.destroy();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.flushHeaders();
    });
    expect(declared).toBe(413);
    expect(await read(token)).toMatchObject({ status: 0, celsius: 21.5 });
  });

  it("a configuration just under its limit is read whole and applied in XS", async () => {
    const token = `Bearer ${await login()}`;
    const padded = { ...config, components: [{ ...sensor, attributes: { readings: { celsius: 21.5 }, note: "é".repeat(1000) } }] };
    const text = JSON.stringify(padded);
    const body = text + " ".repeat(MAX_CONFIG_BODY_BYTES - Buffer.byteLength(text));
    const response = await fetch(`${shim.url}/svc/config`, { method: "PUT", headers: { authorization: token }, body });
    expect(await response.json()).toMatchObject({ outcome: "applied", modified: ["rdk:component:sensor/temp"] });
    expect(await read(token)).toMatchObject({ status: 0, celsius: 21.5 });
  });

  it("without a token, a configuration or a call is refused while its body is still being sent", async () => {
    const config = await sendUntilAnswered("PUT", "/svc/config", {}, new Uint8Array(4096));
    expect(config.status).toBe(401);
    const rpc = await sendUntilAnswered("POST", readingsPath, grpcWeb, new Uint8Array(4096));
    expect(parse(rpc.body).status).toBe(16);
  });
});

describe("a configuration PUT that would remove the auth section", () => {
  it("is 401 without a token or with a wrong one, and the keys stay in force", async () => {
    const open = JSON.stringify({ components: [sensor] });
    const attempts: Array<Record<string, string>> = [{}, { authorization: `Bearer ${"f".repeat(64)}` }, { authorization: "Bearer" }];
    for (const headers of attempts) {
      const response = await fetch(`${shim.url}/svc/config`, { method: "PUT", headers, body: open });
      expect(response.status).toBe(401);
    }
    expect((await read()).status).toBe(16);
    expect(await read(`Bearer ${await login()}`)).toMatchObject({ status: 0, celsius: 21.5 });
  });
});
