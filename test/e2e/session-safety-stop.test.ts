// The session safety stop against the real svc-server process: a client starts a session, drives
// a motor in it (header viam-sid) and falls silent; once its heartbeat window lapses the server
// stops that motor, and only that one: a motor driven in a session that keeps its heartbeats,
// and one driven outside any session, keep turning. Another client watches.
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MotorService } from "../../proto/gen/component/motor/v1/motor_pb.js";
import { RobotService } from "../../proto/gen/robot/v1/robot_pb.js";
import { eventually } from "../helpers/eventually.js";
import { createGrpcJsClient, type GrpcJsClient } from "../helpers/grpc-js-client.js";
import { logLines } from "../helpers/log-lines.js";
import { dialSdk } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const motor = (name: string) => ({ name, api: "rdk:component:motor", model: "fake", attributes: {} });
const config = { components: [motor("quiet"), motor("alive"), motor("free")] };

let server: SvcServerProcess;
let driver: GrpcJsClient;
let watcher: VIAM.RobotClient;
beforeAll(async () => {
  server = await startSvcServer(config);
  driver = createGrpcJsClient(server.url);
  watcher = await dialSdk(server.sdkHost);
});
afterAll(async () => {
  await watcher?.disconnect();
  driver?.close();
  await server?.stop();
});

describe("a session that stops sending heartbeats", () => {
  it("has the motor it drove stopped, while the others keep turning", async () => {
    const quiet = await driver.call(RobotService.method.startSession, {});
    const alive = await driver.call(RobotService.method.startSession, {});
    expect(quiet.id).not.toBe(alive.id);
    const windowMs = Number(quiet.heartbeatWindow!.seconds) * 1000 + quiet.heartbeatWindow!.nanos / 1e6;
    expect(windowMs).toBeGreaterThan(0);

    await driver.call(MotorService.method.setPower, { name: "quiet", powerPct: 0.5 }, { "viam-sid": quiet.id });
    await driver.call(MotorService.method.setPower, { name: "alive", powerPct: 0.5 }, { "viam-sid": alive.id });
    await driver.call(MotorService.method.setPower, { name: "free", powerPct: 0.5 });

    // `alive` heartbeats eight times a window; `quiet` sends nothing more.
    const beating = setInterval(() => {
      driver.call(RobotService.method.sendSessionHeartbeat, { id: alive.id }).catch(() => {});
    }, windowMs / 8);
    try {
      const quietMotor = new VIAM.MotorClient(watcher, "quiet");
      expect(await quietMotor.isMoving()).toBe(true);
      await eventually(async () => ((await quietMotor.isMoving()) ? undefined : true), "the safety stop of quiet");
      expect(await new VIAM.MotorClient(watcher, "alive").isMoving()).toBe(true);
      expect(await new VIAM.MotorClient(watcher, "free").isMoving()).toBe(true);
      expect(await quietMotor.isPowered()).toEqual([false, 0]);

      // The lapsed session is over: its heartbeat and its calls are refused the way SDKs recognise.
      const heartbeat = await driver.call(RobotService.method.sendSessionHeartbeat, { id: quiet.id }).catch((e: unknown) => e);
      expect(heartbeat).toMatchObject({ code: VIAM.Code.InvalidArgument, details: "SESSION_EXPIRED" });
      const call = await driver
        .call(MotorService.method.setPower, { name: "quiet", powerPct: 0.5 }, { "viam-sid": quiet.id })
        .catch((e: unknown) => e);
      expect(call).toMatchObject({ code: VIAM.Code.InvalidArgument, details: "SESSION_EXPIRED" });
      expect(await quietMotor.isMoving()).toBe(false);

      // The server says what it stopped, and why.
      const said = await eventually(
        () => logLines(server.stdout()).find((l) => l.msg === "safety stop: stopped rdk:component:motor/quiet"),
        "the safety stop in the log",
      );
      expect(said).toMatchObject({ session: quiet.id });
      expect(logLines(server.stdout()).some((l) => l.msg.includes(`session ${quiet.id} ended`))).toBe(true);
    } finally {
      clearInterval(beating);
      await driver.call(MotorService.method.stop, { name: "alive" });
      await driver.call(MotorService.method.stop, { name: "free" });
    }
  });
});

describe("network.sessions.heartbeat_window", () => {
  it("is the window sessions are given, and an edit of it applies to the next session", async () => {
    const windowOf = (s: { heartbeatWindow?: { seconds: bigint; nanos: number } }) =>
      Number(s.heartbeatWindow!.seconds) * 1000 + s.heartbeatWindow!.nanos / 1e6;
    expect(windowOf(await driver.call(RobotService.method.startSession, {}))).toBe(2000);
    server.writeConfig({ ...config, network: { sessions: { heartbeat_window: "750ms" } } });
    await eventually(async () => windowOf(await driver.call(RobotService.method.startSession, {})) === 750, "the new window");
    server.writeConfig(config);
    await eventually(async () => windowOf(await driver.call(RobotService.method.startSession, {})) === 2000, "the default again");
  });
});
