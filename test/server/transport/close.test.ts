// Closing the API server: it stops accepting, lets calls in flight finish (telling them through
// their signal), ends idle keep-alive connections and HTTP/2 sessions, frees the port, and
// destroys what is still open at its deadline.
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { SensorService } from "../../../proto/gen/component/sensor/v1/sensor_pb.js";
import { createApiServer } from "../../../targets/linux/server/transport/index.js";
import { grpcTransport, grpcWebTransport, sensorClient, sensorRoutes } from "./sensor-fixture.js";

function listenOn(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(port, "127.0.0.1", () => resolve(probe));
  });
}

function closed(emitter: { once(event: "close", listener: () => void): unknown }): Promise<void> {
  return new Promise((resolve) => emitter.once("close", () => resolve()));
}

/** A sensor whose reading waits for the test: `arrived` resolves when a call is inside. */
function gatedRoutes() {
  let arrived!: () => void;
  const inside = new Promise<void>((resolve) => (arrived = resolve));
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const signals: AbortSignal[] = [];
  const routes = (router: ConnectRouter) =>
    router.service(SensorService, {
      async getReadings(req, context) {
        signals.push(context.signal);
        arrived();
        if (req.name === "forever") await new Promise(() => {});
        await gate;
        return { readings: {} };
      },
    });
  return { routes, inside, release, signals };
}

describe("close()", () => {
  it("ends open HTTP/2 sessions and idle keep-alive connections, then frees the port", async () => {
    const server = await createApiServer({ bindAddress: "127.0.0.1:0", routes: sensorRoutes });
    const session = http2.connect(server.url);
    const goaway = new Promise<void>((resolve) => session.once("goaway", () => resolve()));
    await new Promise<void>((resolve) => session.request({ ":path": "/nope" }).on("end", resolve).resume());
    const agent = new http.Agent({ keepAlive: true });
    const socket = await new Promise<net.Socket>((resolve) => {
      const req = http.get(`${server.url}/nope`, { agent }, (res) => {
        res.resume();
        res.on("end", () => resolve(req.socket!));
      });
    });
    expect(session.closed || socket.destroyed).toBe(false);

    await server.close();
    await Promise.all([goaway, session.closed ? undefined : closed(session), socket.destroyed ? undefined : closed(socket)]);
    const probe = await listenOn(server.port);
    await new Promise((resolve) => probe.close(resolve));
    agent.destroy();
  });

  it("refuses new connections once closing has begun", async () => {
    const server = await createApiServer({ bindAddress: "127.0.0.1:0", routes: sensorRoutes });
    const closing = server.close();
    expect(server.close()).toBe(closing);
    const refused = await sensorClient(grpcTransport(server.url)).getReadings({ name: "temp" }).catch((e: unknown) => e);
    expect(ConnectError.from(refused).code).toBe(Code.Unavailable);
    await closing;
  });

  for (const [protocol, transportFor] of [
    ["gRPC over HTTP/2", grpcTransport],
    ["gRPC-web over HTTP/1.1", grpcWebTransport],
  ] as const) {
    it(`lets a ${protocol} call in flight finish, telling it through its signal`, async () => {
      const { routes, inside, release, signals } = gatedRoutes();
      const server = await createApiServer({ bindAddress: "127.0.0.1:0", routes });
      const call = sensorClient(transportFor(server.url)).getReadings({ name: "slow" });
      await inside;
      let closeDone = false;
      const closing = server.close().then(() => (closeDone = true));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(signals[0]?.aborted).toBe(true);
      expect(closeDone).toBe(false);
      release();
      expect(await call).toMatchObject({ readings: {} });
      await closing;
    });

    it(`destroys a ${protocol} call still running at the deadline`, async () => {
      const { routes, inside } = gatedRoutes();
      const server = await createApiServer({ bindAddress: "127.0.0.1:0", routes, closeDeadlineMs: 100 });
      const call = sensorClient(transportFor(server.url)).getReadings({ name: "forever" }).catch((e: unknown) => e);
      await inside;
      await server.close();
      expect(await call).toBeInstanceOf(ConnectError);
      const probe = await listenOn(server.port);
      await new Promise((resolve) => probe.close(resolve));
    });
  }
});
