// Calls for a module's resources pass through svc-server as bytes, and stay svc-server's calls:
// the module's answers and errors reach the client as the module gave them, a safety-monitored
// call ties the module's motor to the caller's session (which stops it when the session lapses),
// and a call whose deadline passes, or which the client abandons, is cancelled in the module
// too. A module serving a motor (test/fixtures/modules/motor-module.ts) against the real server.
import { createClient, ConnectError, Code, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MotorService } from "../../proto/gen/component/motor/v1/motor_pb.js";
import { SensorService } from "../../proto/gen/component/sensor/v1/sensor_pb.js";
import { RobotService } from "../../proto/gen/robot/v1/robot_pb.js";
import { eventually } from "../helpers/eventually.js";
import { buildFixtureModules, type BuiltModules } from "../helpers/module-fixtures.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

let modules: BuiltModules;
let server: SvcServerProcess;
let motor: Client<typeof MotorService>;
let sensor: Client<typeof SensorService>;
let robot: Client<typeof RobotService>;

beforeAll(async () => {
  modules = await buildFixtureModules(["motor-module"]);
  server = await startSvcServer({
    modules: [{ type: "local", name: "motors", executable_path: modules.path("motor-module") }],
    components: [
      { name: "arm-joint", api: "rdk:component:motor", model: "test:fixture:motor" },
      { name: "motor-log", api: "rdk:component:sensor", model: "test:fixture:motor-log" },
    ],
  });
  const transport = createGrpcTransport({ baseUrl: server.url });
  motor = createClient(MotorService, transport);
  sensor = createClient(SensorService, transport);
  robot = createClient(RobotService, transport);
  // A module starting while the machine is busy may take a while: the hook allows it 45 s.
  await eventually(async () => ((await motor.isPowered({ name: "arm-joint" }).catch(() => undefined)) ? true : undefined), "the module's motor", {
    timeoutMs: 45_000,
  });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  modules?.remove();
});

const heard = async () => {
  const { readings } = await sensor.getReadings({ name: "motor-log" });
  return { heard: String(readings.heard?.kind.value ?? ""), power: Number(readings.power?.kind.value) };
};

describe("a module's motor, through svc-server", () => {
  it("answers with what the module says, its errors kept with their code and message", async () => {
    await motor.setPower({ name: "arm-joint", powerPct: 0.25 });
    expect(await motor.isPowered({ name: "arm-joint" })).toMatchObject({ isOn: true, powerPct: 0.25 });
    const refused = await motor.setPower({ name: "arm-joint", powerPct: 0.95 }).catch((e: unknown) => ConnectError.from(e));
    expect(refused).toMatchObject({ code: Code.FailedPrecondition, rawMessage: expect.stringContaining("over temperature") });
    await motor.stop({ name: "arm-joint" });
    expect((await heard()).heard).toMatch(/setPower 0.25, setPower 0.95, stop$/);
  });

  it("is stopped when the session that drove it lapses", async () => {
    const session = await robot.startSession({});
    await motor.setPower({ name: "arm-joint", powerPct: 0.5 }, { headers: { "viam-sid": session.id } });
    expect((await heard()).power).toBe(0.5);
    // No heartbeat follows: the server's safety stop reaches the module.
    await eventually(async () => ((await heard()).power === 0 ? true : undefined), "the session's safety stop");
    expect((await heard()).heard).toMatch(/setPower 0.5, stop$/);
  });

  it("stops in the module when a call's deadline passes, and the operation is gone", async () => {
    const late = await motor.goFor({ name: "arm-joint", rpm: 30, revolutions: 0 }, { timeoutMs: 300 }).catch((e: unknown) => ConnectError.from(e));
    expect(late).toMatchObject({ code: Code.DeadlineExceeded });
    await eventually(async () => ((await heard()).power === 0 ? true : undefined), "the module's motor stopped");
    const { operations } = await robot.getOperations({});
    expect(operations.filter((op) => op.method.endsWith("/GoFor"))).toEqual([]);
  });

  it("stops in the module when the client abandons the call", async () => {
    const abandon = new AbortController();
    const going = motor.goFor({ name: "arm-joint", rpm: 30, revolutions: 0 }, { signal: abandon.signal }).catch((e: unknown) => ConnectError.from(e));
    await eventually(async () => ((await heard()).power === 0.5 ? true : undefined), "the module's motor turning");
    abandon.abort();
    expect(await going).toMatchObject({ code: Code.Canceled });
    await eventually(async () => ((await heard()).power === 0 ? true : undefined), "the module's motor stopped");
  });

  it("cancels the call in the module when its operation is cancelled", async () => {
    const going = motor.goFor({ name: "arm-joint", rpm: 30, revolutions: 0 }).catch((e: unknown) => ConnectError.from(e));
    const op = await eventually(async () => {
      const { operations } = await robot.getOperations({});
      return operations.find((o) => o.method.endsWith("/GoFor"));
    }, "the GoFor operation");
    await robot.cancelOperation({ id: op.id });
    expect(await going).toMatchObject({ code: Code.Canceled });
    await eventually(async () => ((await heard()).power === 0 ? true : undefined), "the module's motor stopped");
  });
});
