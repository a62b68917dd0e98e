// Remotes that misbehave, against a real svc-server as the main part: one that takes the TCP
// connection and never says a word, one that answers garbage, one that lists 10,000 resources,
// and one whose listing is tens of megabytes of huge names. Each is held to its bounds and said
// in its status (unavailable with why, or what it leaves out), while the main part goes on
// answering its own API throughout.
import { create, toBinary } from "@bufbuild/protobuf";
import { randomBytes } from "node:crypto";
import http2 from "node:http2";
import { createServer, type Server, type Socket } from "node:net";
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ResourceNamesResponseSchema } from "../../proto/gen/robot/v1/robot_pb.js";
import { eventually } from "../helpers/eventually.js";
import { dialSdk } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";
import { robotClient, statuses, when } from "./parts.js";

const sockets = new Set<Socket>();
const servers: Array<Server | http2.Http2Server> = [];
let main: SvcServerProcess;
let robot: VIAM.RobotClient;

function listen<T extends Server | http2.Http2Server>(server: T): Promise<number> {
  servers.push(server);
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)));
}

/** A gRPC server whose every ResourceNames answer lists `count` sensors named by `name`. */
function lister(count: number, name: (i: number) => string): http2.Http2Server {
  const answer = toBinary(
    ResourceNamesResponseSchema,
    create(ResourceNamesResponseSchema, {
      resources: Array.from({ length: count }, (_, i) => ({ namespace: "rdk", type: "component", subtype: "sensor", name: name(i) })),
    }),
  );
  const frame = Buffer.alloc(5 + answer.length);
  frame.writeUInt32BE(answer.length, 1);
  frame.set(answer, 5);
  const server = http2.createServer();
  server.on("stream", (stream, headers) => {
    stream.on("error", () => {});
    // Only ResourceNames: the rest is a method it does not have.
    const lists = headers[":path"] === "/viam.robot.v1.RobotService/ResourceNames";
    stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
    stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": lists ? "0" : "12" }));
    stream.resume();
    stream.end(lists ? frame : undefined);
  });
  return server;
}

const remote = (name: string, port: number) => ({ name, address: `127.0.0.1:${port}`, insecure: true, connection_check_interval: "1s", reconnect_interval: "100ms" });

beforeAll(async () => {
  const silent = await listen(createServer(() => {}));
  const garbage = await listen(createServer((socket) => socket.end(randomBytes(64 * 1024))));
  const crowded = await listen(lister(10_000, (i) => `s${i}`));
  const huge = await listen(lister(10_000, (i) => `${"n".repeat(1_000)}${i}`));
  main = await startSvcServer({
    remotes: [remote("silent", silent), remote("garbage", garbage), remote("crowded", crowded), remote("huge", huge)],
    components: [{ name: "own", api: "rdk:component:sensor", model: "fake", attributes: { readings: { own: 1 } } }],
  });
  robot = await dialSdk(main.sdkHost);
}, 60_000);

afterAll(async () => {
  await robot?.disconnect();
  await main?.stop();
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

describe("hostile remotes", () => {
  it("are each held to their bounds and said in their status", async () => {
    const silent = await eventually(() => when(main.url, "rdk:remote:/silent", "UNHEALTHY", /did not answer/), "the silent remote timed out");
    expect(silent.error).toMatch(/^unavailable: remote silent did not answer (Authenticate|ResourceNames) within 5000 ms$/);
    await eventually(() => when(main.url, "rdk:remote:/garbage", "UNHEALTHY"), "the garbage remote refused");
    const huge = await eventually(() => when(main.url, "rdk:remote:/huge", "UNHEALTHY", /more than/), "the huge listing refused");
    expect(huge.error).toBe("unavailable: remote huge answered with more than 4194304 bytes");
    const crowded = await eventually(() => when(main.url, "rdk:remote:/crowded", "READY", /joined/), "the crowded remote joined in part");
    expect(crowded.error).toBe("it lists 10000 resources; the first 1000 are joined");
    await eventually(async () => ((await robotClient(main.url).resourceNames({})).resources.length === 1_001 ? true : undefined), "1,000 of crowded's resources listed");
  });

  it("leave the main part answering its own API", async () => {
    for (let i = 0; i < 20; i++) expect(await new VIAM.SensorClient(robot, "own").getReadings()).toEqual({ own: 1 });
    const status = await statuses(main.url);
    expect(status.get("rdk:component:sensor/own")).toEqual({ state: "READY", error: "" });
    expect(status.get("rdk:component:sensor/crowded:s999")?.state).toBe("READY");
    expect(status.has("rdk:component:sensor/crowded:s1000")).toBe(false);
  });
});
