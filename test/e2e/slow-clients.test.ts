// The real svc-server, held to 200 open files, against 250 slow-header connections from one
// other address (127.0.0.2): the ones over the per-address cap are closed at once, the rest are
// cut at the headers timeout, and meanwhile the official SDK from 127.0.0.1 is answered.
import * as VIAM from "@viamrobotics/sdk";
import { execFileSync } from "node:child_process";
import net from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { dialSdk } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";
import { requireTools } from "../helpers/system-tools.js";

let server: SvcServerProcess;
const sockets: net.Socket[] = [];
beforeAll(async () => {
  requireTools("prlimit");
  server = await startSvcServer({
    components: [{ name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings: { celsius: 22 } } }],
  });
  execFileSync("prlimit", ["--pid", String(server.child.pid), "--nofile=200:200"]);
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await server?.stop();
});

it("250 slow clients from one address neither exhaust the open files nor lock out the SDK, and are closed", async () => {
  const port = Number(new URL(server.url).port);
  const slow = Array.from({ length: 250 }, () => {
    const socket = net.connect({ port, host: "127.0.0.1", localAddress: "127.0.0.2" });
    sockets.push(socket);
    const state = { closed: false, text: "" };
    socket.on("data", (d) => (state.text += d.toString("latin1")));
    socket.on("error", () => {});
    socket.on("close", () => {
      state.closed = true;
      clearInterval(drip);
    });
    socket.write("GET /restart_status HTTP/1.1\r\nHost: localhost\r\n");
    // A header byte every 2 s, as slowloris sends them.
    const drip = setInterval(() => socket.write("x"), 2_000);
    return state;
  });

  const robot = await dialSdk(server.sdkHost);
  try {
    expect(await new VIAM.SensorClient(robot, "temp").getReadings()).toEqual({ celsius: 22 });
  } finally {
    await robot.disconnect();
  }
  await eventually(() => (slow.every((s) => s.closed) ? true : undefined), "every slow connection to be closed", { timeoutMs: 60_000 });
  const timedOut = slow.filter((s) => s.text.startsWith("HTTP/1.1 408")).length;
  expect(timedOut).toBeGreaterThan(0);
  expect(timedOut).toBeLessThanOrEqual(64);
});
