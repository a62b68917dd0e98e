// The server's plain HTTP routes on a real API port: /restart_status from its provider, and a
// shared folder served with content types, index.html, HEAD, 404, and no way out of the folder.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restartStatusRoute, staticFilesRoute, StaticFilesError, type RestartStatus } from "../../../targets/linux/server/http/index.js";
import { createApiServer, type ApiServer } from "../../../targets/linux/server/transport/index.js";
import { grpcTransport, readingsJson, sensorClient, sensorRoutes, tempReadings } from "../transport/sensor-fixture.js";

const base = mkdtempSync(join(tmpdir(), "svc-http-"));
const shared = join(base, "shared");
let server: ApiServer;
let status: RestartStatus = { restartAllowed: true, reconfiguring: false, maintenanceAllowed: true, reason: "", restartRequested: false };

beforeAll(async () => {
  mkdirSync(join(shared, "app", "img"), { recursive: true });
  mkdirSync(join(shared, "empty"));
  writeFileSync(join(shared, "index.html"), "<h1>machine</h1>\n");
  writeFileSync(join(shared, "app", "index.html"), "<p>app</p>\n");
  writeFileSync(join(shared, "app", "main.js"), "console.log('hi');\n");
  writeFileSync(join(shared, "app", "style.css"), "body{}\n");
  writeFileSync(join(shared, "app", "img", "dot.svg"), "<svg/>\n");
  writeFileSync(join(shared, "app", "data.bin"), Buffer.from([0, 1, 2, 3]));
  writeFileSync(join(shared, "na me.txt"), "spaced\n");
  writeFileSync(join(base, "secret.txt"), "outside the shared folder\n");
  symlinkSync(join(base, "secret.txt"), join(shared, "escape.txt"));
  symlinkSync(join(shared, "app", "main.js"), join(shared, "alias.js"));

  server = await createApiServer({
    bindAddress: "127.0.0.1:0",
    routes: sensorRoutes,
    httpRoutes: [restartStatusRoute(() => status), staticFilesRoute({ dir: shared })],
  });
});
afterAll(async () => {
  await server.close();
  rmSync(base, { recursive: true, force: true });
});

/** A request with the path sent exactly as written (fetch would normalise "..").  */
function rawGet(path: string, method = "GET"): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: server.port, path, method }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("GET /restart_status", () => {
  it("answers what the provider says, with the reason fields", async () => {
    status = { restartAllowed: true, reconfiguring: false, maintenanceAllowed: true, reason: "", restartRequested: false };
    const allowed = await fetch(`${server.url}/restart_status`);
    expect(allowed.headers.get("content-type")).toBe("application/json");
    expect(await allowed.json()).toEqual({ restart_allowed: true, reconfiguring: false, maintenance_allowed: true, reason: "", restart_requested: false });

    status = { restartAllowed: false, reconfiguring: true, maintenanceAllowed: true, reason: "a configuration is being applied", restartRequested: false };
    expect(await (await fetch(`${server.url}/restart_status`)).json()).toEqual({
      restart_allowed: false,
      reconfiguring: true,
      maintenance_allowed: true,
      reason: "a configuration is being applied",
      restart_requested: false,
    });

    status = { restartAllowed: false, reconfiguring: false, maintenanceAllowed: false, reason: "the maintenance window says no", restartRequested: true };
    expect(await (await fetch(`${server.url}/restart_status`)).json()).toMatchObject({ restart_allowed: false, maintenance_allowed: false, restart_requested: true });
  });
});

describe("-shareddir static files", () => {
  it("serve files with their content types and lengths", async () => {
    for (const [path, type, body] of [
      ["/app/main.js", "text/javascript; charset=utf-8", "console.log('hi');\n"],
      ["/app/style.css", "text/css; charset=utf-8", "body{}\n"],
      ["/app/img/dot.svg", "image/svg+xml", "<svg/>\n"],
      ["/na%20me.txt", "text/plain; charset=utf-8", "spaced\n"],
      ["/app/main.js?v=3", "text/javascript; charset=utf-8", "console.log('hi');\n"],
    ] as const) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type"), path).toBe(type);
      expect(response.headers.get("content-length"), path).toBe(String(Buffer.byteLength(body)));
      expect(await response.text(), path).toBe(body);
    }
    const bytes = await fetch(`${server.url}/app/data.bin`);
    expect(bytes.headers.get("content-type")).toBe("application/octet-stream");
    expect([...new Uint8Array(await bytes.arrayBuffer())]).toEqual([0, 1, 2, 3]);
  });

  it("serve index.html for / and for a folder", async () => {
    expect(await (await fetch(`${server.url}/`)).text()).toBe("<h1>machine</h1>\n");
    expect(await (await fetch(`${server.url}/app/`)).text()).toBe("<p>app</p>\n");
    expect(await (await fetch(`${server.url}/app`)).text()).toBe("<p>app</p>\n");
  });

  it("answer HEAD with the headers and no body", async () => {
    const head = await rawGet("/app/main.js", "HEAD");
    expect(head).toMatchObject({ status: 200, body: "" });
    expect(head.headers["content-length"]).toBe("19");
    expect(head.headers["last-modified"]).toBeTruthy();
  });

  it("answer 404 for what is not there, a folder without index.html, and other methods 405", async () => {
    for (const path of ["/nope.html", "/app/nope.js", "/empty/", "/empty"]) {
      expect((await fetch(`${server.url}${path}`)).status, path).toBe(404);
    }
    expect((await fetch(`${server.url}/app/main.js`, { method: "POST", body: "x" })).status).toBe(405);
  });

  it("never serve anything outside the folder", async () => {
    for (const path of [
      "/../secret.txt",
      "/app/../../secret.txt",
      "/%2e%2e/secret.txt",
      "/..%2fsecret.txt",
      "/app/..%2f..%2fsecret.txt",
      "/..%5csecret.txt",
      "/escape.txt",
      "/app/main.js%00.html",
      "/%E0%A4%A",
    ]) {
      const response = await rawGet(path);
      expect(response.status, path).toBe(404);
      expect(response.body, path).not.toContain("outside");
    }
  });

  it("follow links that stay inside the folder, and normalise harmless dots", async () => {
    expect((await rawGet("/alias.js")).body).toBe("console.log('hi');\n");
    expect((await rawGet("/app/img/../main.js")).body).toBe("console.log('hi');\n");
    expect((await rawGet("/./app//main.js")).body).toBe("console.log('hi');\n");
  });

  it("work over HTTP/2 and leave the RPCs alone", async () => {
    const session = http2.connect(server.url);
    try {
      const { status: code, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const stream = session.request({ ":path": "/app/main.js" });
        let code = 0;
        let body = "";
        stream.on("response", (headers) => (code = Number(headers[":status"])));
        stream.on("data", (chunk: Buffer) => (body += chunk.toString()));
        stream.on("end", () => resolve({ status: code, body }));
        stream.on("error", reject);
      });
      expect({ code, body }).toEqual({ code: 200, body: "console.log('hi');\n" });
    } finally {
      session.close();
    }
    expect(readingsJson(await sensorClient(grpcTransport(server.url)).getReadings({ name: "temp" }))).toEqual(tempReadings);
  });

  it("refuse a folder that does not exist or is a file, when created", () => {
    expect(() => staticFilesRoute({ dir: join(base, "missing") })).toThrow(StaticFilesError);
    expect(() => staticFilesRoute({ dir: join(base, "missing") })).toThrow(`-shareddir ${JSON.stringify(join(base, "missing"))}: no such directory`);
    expect(() => staticFilesRoute({ dir: join(base, "secret.txt") })).toThrow("not a directory");
  });

  it("can be mounted under a folder path", async () => {
    const mounted = await createApiServer({
      bindAddress: "127.0.0.1:0",
      routes: sensorRoutes,
      httpRoutes: [staticFilesRoute({ dir: shared, mountPath: "/static/" })],
    });
    try {
      expect(await (await fetch(`${mounted.url}/static/app/main.js`)).text()).toBe("console.log('hi');\n");
      expect((await fetch(`${mounted.url}/app/main.js`)).status).toBe(404);
    } finally {
      await mounted.close();
    }
  });
});
