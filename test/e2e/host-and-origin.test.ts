// Which web pages may drive the machine, against the real svc-server process with real fetches
// and curl. Without API keys (the loopback default) a request must name the machine by one of its
// own names (Host), and a page may call only from the machine's own origins or those listed in
// network.cors_origins: a page the operator happens to visit gets nothing, whether it calls the
// machine directly or through a name that resolves to 127.0.0.1 (DNS rebinding). With API keys
// every call needs a token, so any origin may call, never with credentials. -webprofile's
// /debug routes need a token from everyone whenever keys are configured.
import * as VIAM from "@viamrobotics/sdk";
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { dialSdk } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";
import { requireTools } from "../helpers/system-tools.js";

const sensor = { name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings: { celsius: 22 } } };
const readingsPath = "/viam.component.sensor.v1.SensorService/GetReadings";
const evil = "https://evil.example";

beforeAll(() => {
  requireTools("curl");
  vi.spyOn(console, "debug").mockImplementation(() => {});
});
afterAll(() => vi.restoreAllMocks());

/** A Connect call of GetReadings through fetch, from a page at `origin` when given. */
const call = (server: SvcServerProcess, origin?: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${readingsPath}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(origin ? { origin } : {}), ...headers },
    body: JSON.stringify({ name: "temp" }),
  });

const preflight = (server: SvcServerProcess, origin: string) =>
  fetch(`${server.url}${readingsPath}`, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
  });

/** curl reaching the server under `name`, which resolves to 127.0.0.1 for this one request. */
function curlAs(server: SvcServerProcess, name: string, path = readingsPath, headers: string[] = []): { status: number; body: string } {
  const port = new URL(server.url).port;
  const result = spawnSync(
    "curl",
    [
      "-s", "-o", "-", "-w", "\n%{http_code}", "--max-time", "10",
      "--resolve", `${name}:${port}:127.0.0.1`,
      "-H", "content-type: application/json", ...headers.flatMap((h) => ["-H", h]),
      "--data", JSON.stringify({ name: "temp" }),
      `http://${name}:${port}${path}`,
    ],
    { encoding: "utf8" },
  );
  const lines = result.stdout.trimEnd().split("\n");
  return { status: Number(lines.pop()), body: lines.join("\n") };
}

describe("without API keys", () => {
  let server: SvcServerProcess;
  beforeAll(async () => {
    server = await startSvcServer({
      components: [sensor],
      network: { allowed_hosts: ["robot.example"], cors_origins: ["https://ui.example"] },
    });
  });
  afterAll(() => server?.stop());

  it("the official SDK works from the machine's own name", async () => {
    const robot = await dialSdk(server.sdkHost);
    try {
      expect(await new VIAM.SensorClient(robot, "temp").getReadings()).toEqual({ celsius: 22 });
    } finally {
      await robot.disconnect();
    }
  });

  it("a page on another origin is refused before anything runs, and gets no CORS headers", async () => {
    const response = await call(server, evil);
    expect(response.status).toBe(403);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    const text = await response.text();
    expect(text).toContain(evil);
    expect(text).toContain("network.cors_origins");
    const asked = await preflight(server, evil);
    expect(asked.headers.get("access-control-allow-origin")).toBeNull();
    expect((await call(server, "null")).status).toBe(403);
  });

  it("the machine's own origin and the origins in network.cors_origins may call, without credentials", async () => {
    const port = new URL(server.url).port;
    for (const origin of [`http://localhost:${port}`, `http://127.0.0.1:${port}`, "https://ui.example"]) {
      const response = await call(server, origin);
      expect(response.status, origin).toBe(200);
      expect(response.headers.get("access-control-allow-origin"), origin).toBe(origin);
      expect(response.headers.get("access-control-allow-credentials"), origin).toBeNull();
    }
    // Another port of the machine is another site: a page there is not the machine's own.
    expect((await call(server, "http://localhost:1")).status).toBe(403);
  });

  it("a request naming a host that is not the machine's (DNS rebinding) is refused with 421, saying what to change", () => {
    const refused = curlAs(server, "evil.example");
    expect(refused.status).toBe(421);
    expect(refused.body).toContain("evil.example");
    expect(refused.body).toContain("network.allowed_hosts");
    expect(curlAs(server, "robot.example").status).toBe(200);
    expect(curlAs(server, "localhost").status).toBe(200);
  });
});

describe("with API keys", () => {
  let server: SvcServerProcess;
  const apiKey = { id: "key-id", key: "key-value-one" };
  beforeAll(async () => {
    server = await startSvcServer(
      { components: [sensor], auth: { handlers: [{ type: "api-key", config: { [apiKey.id]: apiKey.key } }] } },
      { args: ["-webprofile"] },
    );
  });
  afterAll(() => server?.stop());

  it("any origin may call, without credentials, and still needs a token", async () => {
    const asked = await preflight(server, evil);
    expect(asked.headers.get("access-control-allow-origin")).toBe(evil);
    expect(asked.headers.get("access-control-allow-credentials")).toBeNull();
    const response = await call(server, evil);
    expect(response.status).toBe(401);
    expect(response.headers.get("access-control-allow-origin")).toBe(evil);
    expect(response.headers.get("access-control-allow-credentials")).toBeNull();
    // Under any host name too: the token is what counts.
    const rebound = curlAs(server, "evil.example");
    expect(rebound.status).toBe(401);
  });

  it("-webprofile's /debug routes need a token even from this machine", async () => {
    for (const path of ["/debug/heap", "/debug/profile?seconds=0.1", "/debug/gc"]) {
      const refused = await fetch(`${server.url}${path}`);
      expect(refused.status, path).toBe(401);
      expect(await refused.text()).toContain("Bearer");
    }
    const login = await fetch(`${server.url}/proto.rpc.v1.AuthService/Authenticate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ entity: apiKey.id, credentials: { type: "api-key", payload: apiKey.key } }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const profile = await fetch(`${server.url}/debug/profile?seconds=0.1`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(profile.status).toBe(200);
    expect(JSON.parse(await profile.text())).toHaveProperty("nodes");
    const gc = await fetch(`${server.url}/debug/gc`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(gc.status).toBe(200);
    expect(await gc.json()).toEqual({ count: expect.any(Number), durationMs: expect.any(Number) });
  });
});
