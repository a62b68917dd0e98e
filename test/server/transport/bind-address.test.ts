// The bind_address setting, and what the server says when it cannot listen there.
import net from "node:net";
import { describe, expect, it } from "vitest";
import { createApiServer, ListenError, parseBindAddress } from "../../../targets/linux/server/transport/index.js";
import { sensorRoutes } from "./sensor-fixture.js";

describe("parseBindAddress", () => {
  it.each([
    ["localhost:8080", { host: "127.0.0.1", port: 8080 }],
    ["0.0.0.0:0", { host: "0.0.0.0", port: 0 }],
    [":8080", { host: undefined, port: 8080 }],
    ["[::1]:9090", { host: "::1", port: 9090 }],
    ["robot.local:443", { host: "robot.local", port: 443 }],
  ])("reads %s", (text, value) => {
    expect(parseBindAddress(text)).toEqual({ ok: true, value });
  });

  it.each([
    ["8080", 'bind_address "8080": must be "host:port", for example "localhost:8080"'],
    ["localhost:http", 'bind_address "localhost:http": the port must be a whole number from 0 to 65535'],
    ["localhost:70000", 'bind_address "localhost:70000": the port must be a whole number from 0 to 65535'],
    ["::1:8080", 'bind_address "::1:8080": an IPv6 host is written in brackets: "[::1]:8080"'],
  ])("refuses %s, saying why", (text, problem) => {
    expect(parseBindAddress(text)).toEqual({ ok: false, problem });
  });
});

describe("createApiServer when it cannot listen", () => {
  it("says the port is in use", async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const attempt = createApiServer({ bindAddress: `127.0.0.1:${port}`, routes: sensorRoutes });
      await expect(attempt).rejects.toThrow(new ListenError(`bind_address "127.0.0.1:${port}": the address is already in use`));
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it("says a malformed bind address is malformed", async () => {
    await expect(createApiServer({ bindAddress: "8080", routes: sensorRoutes })).rejects.toBeInstanceOf(ListenError);
  });

  it("reports the port it picked and a URL to reach it", async () => {
    const server = await createApiServer({ bindAddress: "localhost:0", routes: sensorRoutes });
    try {
      expect(server.host).toBe("127.0.0.1");
      expect(server.port).toBeGreaterThan(0);
      expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
      expect(server.secure).toBe(false);
    } finally {
      await server.close();
    }
  });
});
