// Plain HTTP routes share the port with the RPCs: exact paths, folders by prefix, over HTTP/1.1
// and HTTP/2; they never shadow an RPC method, and a failing route answers 500.
import http2 from "node:http2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiServer, type ApiServer } from "../../../targets/linux/server/transport/index.js";
import { getReadingsPath, grpcTransport, grpcWebTransport, readingsJson, sensorClient, sensorRoutes, tempReadings } from "./sensor-fixture.js";

let server: ApiServer;
const routeErrors: string[] = [];

beforeAll(async () => {
  server = await createApiServer({
    bindAddress: "127.0.0.1:0",
    routes: sensorRoutes,
    onRouteError: (error, method, path) => routeErrors.push(`${method} ${path}: ${(error as Error).message}`),
    httpRoutes: [
      {
        method: "GET",
        path: "/restart_status",
        handler(_req, res) {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ restart_allowed: true }));
        },
      },
      { method: "GET", path: "/", prefix: true, handler: (req, res) => void res.end(`root ${req.url}`) },
      { method: "GET", path: "/static/", prefix: true, handler: (req, res) => void res.end(`static ${req.url}`) },
      {
        method: "POST",
        path: "/notes",
        async handler(req, res) {
          let body = "";
          for await (const chunk of req) body += chunk;
          res.writeHead(201, { "content-type": "application/json" });
          res.end(JSON.stringify({ saved: JSON.parse(body) }));
        },
      },
      {
        method: "POST",
        path: "/broken",
        async handler() {
          throw new Error("disk on fire");
        },
      },
    ],
  });
});
afterAll(() => server.close());

function getOverHttp2(path: string, method = "GET"): Promise<{ status: number; body: string }> {
  const session = http2.connect(server.url);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const stream = session.request({ ":path": path, ":method": method });
    let status = 0;
    let body = "";
    stream.on("response", (headers) => (status = Number(headers[":status"])));
    stream.on("data", (chunk: Buffer) => (body += chunk.toString()));
    stream.on("end", () => resolve({ status, body }));
    stream.on("error", reject);
    stream.end();
  }).finally(() => session.close());
}

describe("plain HTTP routes", () => {
  it("serve an exact path over HTTP/1.1 and HTTP/2", async () => {
    const h1 = await fetch(`${server.url}/restart_status?verbose=1`);
    expect(h1.status).toBe(200);
    expect(await h1.json()).toEqual({ restart_allowed: true });
    const h2 = await getOverHttp2("/restart_status");
    expect(h2).toEqual({ status: 200, body: JSON.stringify({ restart_allowed: true }) });
  });

  it("serve folders by their longest prefix, and GET routes answer HEAD", async () => {
    expect(await (await fetch(`${server.url}/static/app.js`)).text()).toBe("static /static/app.js");
    expect(await (await fetch(`${server.url}/index.html`)).text()).toBe("root /index.html");
    expect((await fetch(`${server.url}/static/app.js`, { method: "HEAD" })).status).toBe(200);
  });

  it("take JSON posts on their own paths", async () => {
    const response = await fetch(`${server.url}/notes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "calibrate on Monday" }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ saved: { text: "calibrate on Monday" } });
  });

  it("answer 405 with the allowed methods for another method", async () => {
    const response = await fetch(`${server.url}/restart_status`, { method: "DELETE" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
  });

  it("answer 500 when the handler fails, and report the error", async () => {
    const response = await fetch(`${server.url}/broken`, { method: "POST" });
    expect(response.status).toBe(500);
    expect(routeErrors).toEqual(["POST /broken: disk on fire"]);
  });

  it("never shadow RPCs, even with a route on every path", async () => {
    for (const transport of [grpcTransport(server.url), grpcWebTransport(server.url)]) {
      expect(readingsJson(await sensorClient(transport).getReadings({ name: "temp" }))).toEqual(tempReadings);
    }
    const unknownRpc = await fetch(`${server.url}${getReadingsPath}x`, {
      method: "POST",
      headers: { "content-type": "application/grpc-web+proto" },
      body: new Uint8Array(5),
    });
    expect(unknownRpc.headers.get("grpc-status")).toBe("12");
  });

  it("are checked when created", async () => {
    const bad = createApiServer({
      bindAddress: "127.0.0.1:0",
      routes: sensorRoutes,
      httpRoutes: [{ method: "GET", path: "static/", prefix: true, handler: () => {} }],
    });
    await expect(bad).rejects.toThrow('httpRoutes[0].path: must start with "/"');
  });
});
