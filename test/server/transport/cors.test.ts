// A browser page on another origin can call the API when the access rules let it: preflights are
// answered with the headers gRPC-web, Connect and the Viam SDK send, responses carry the origin
// and expose grpc-status, and credentials are never allowed. When tokens are required any origin
// may call; otherwise only the machine's own and the listed ones, and any other is refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiServer, type AccessRules, type ApiServer } from "../../../targets/linux/server/transport/index.js";
import { getReadingsPath, sensorRoutes } from "./sensor-fixture.js";

const origin = "https://app.example.com";
const withTokens: AccessRules = { tokensRequired: true, hostNames: [], corsOrigins: [] };
const listed: AccessRules = { tokensRequired: false, hostNames: [], corsOrigins: ["https://ui.example.com"] };
let open: ApiServer;
let restricted: ApiServer;

beforeAll(async () => {
  open = await createApiServer({ bindAddress: "127.0.0.1:0", routes: sensorRoutes, access: () => withTokens });
  restricted = await createApiServer({
    bindAddress: "127.0.0.1:0",
    routes: sensorRoutes,
    access: () => listed,
    cors: { allowedOrigins: [origin], extraAllowedHeaders: ["x-trace"] },
  });
});
afterAll(() => Promise.all([open.close(), restricted.close()]));

const preflight = (server: ApiServer, from: string, extra: Record<string, string> = {}) =>
  fetch(`${server.url}${getReadingsPath}`, {
    method: "OPTIONS",
    headers: {
      origin: from,
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type,x-grpc-web,x-user-agent,authorization",
      ...extra,
    },
  });

const grpcWebCall = (server: ApiServer, from?: string) =>
  fetch(`${server.url}${getReadingsPath}`, {
    method: "POST",
    headers: { "content-type": "application/grpc-web+proto", "x-grpc-web": "1", ...(from ? { origin: from } : {}) },
    body: new Uint8Array([0, 0, 0, 0, 0]),
  });

describe("CORS", () => {
  it("answers a preflight with the origin, methods and every header the clients send", async () => {
    const response = await preflight(open, origin);
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(origin);
    expect(response.headers.get("access-control-allow-credentials")).toBeNull();
    expect(response.headers.get("access-control-allow-methods")?.split(", ")).toEqual(expect.arrayContaining(["POST", "GET"]));
    const allowed = response.headers.get("access-control-allow-headers")?.split(", ");
    for (const header of [
      "content-type",
      "x-grpc-web",
      "x-user-agent",
      "grpc-timeout",
      "authorization",
      "connect-protocol-version",
      "connect-timeout-ms",
      "viam-sid",
      "rpc-host",
    ]) {
      expect(allowed).toContain(header);
    }
    expect(response.headers.get("vary")).toBe("Origin");
  });

  it("lets a page on a public site reach a machine on the local network", async () => {
    const response = await preflight(open, origin, { "access-control-request-private-network": "true" });
    expect(response.headers.get("access-control-allow-private-network")).toBe("true");
  });

  it("marks a real call with the origin and exposes the gRPC status headers", async () => {
    const response = await grpcWebCall(open, "http://localhost:5173");
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(response.headers.get("access-control-expose-headers")?.split(", ")).toEqual(
      expect.arrayContaining(["Grpc-Status", "Grpc-Message", "Grpc-Status-Details-Bin"]),
    );
  });

  it("adds nothing for a client that sends no Origin", async () => {
    const response = await grpcWebCall(open);
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("without tokens, allows only the listed origins and the machine's own, plus the extra headers asked for", async () => {
    for (const allowedOrigin of [origin, "https://ui.example.com", `http://127.0.0.1:${restricted.port}`]) {
      const allowed = await preflight(restricted, allowedOrigin);
      expect(allowed.headers.get("access-control-allow-origin"), allowedOrigin).toBe(allowedOrigin);
      expect(allowed.headers.get("access-control-allow-headers")?.split(", ")).toContain("x-trace");
    }
    const other = await preflight(restricted, "https://elsewhere.example");
    expect(other.status).toBe(403);
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    const call = await grpcWebCall(restricted, "https://elsewhere.example");
    expect(call.status).toBe(403);
    expect(call.headers.get("access-control-allow-origin")).toBeNull();
    expect(await call.text()).toContain("network.cors_origins");
    // No Origin: not a page, so nothing to refuse.
    expect((await grpcWebCall(restricted)).status).toBe(200);
  });
});
