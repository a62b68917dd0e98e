// Sessions and the safety stop, on real fake motors and a manual clock: heartbeats keep a session
// alive, a lapse stops exactly the actuators that session drove last, resume continues a live
// session, and calls carrying an ended session are refused the way the SDK recognises.
import { afterEach, describe, expect, it } from "vitest";
import {
  Code,
  createCallRunner,
  createOperations,
  createSessions,
  SESSION_EXPIRED,
  uuidFrom,
  type LoggerLike,
  type Motor,
  type SessionsOptions,
} from "../../../core/index.js";
import { createTestMachine, entry, type TestMachine } from "../../components/test-machine.js";

interface Line {
  level: string;
  message: string;
  fields?: Record<string, unknown>;
}

let machine: TestMachine;
afterEach(() => machine?.closeAll());

async function setup(options: Partial<SessionsOptions> = {}) {
  machine = createTestMachine();
  const lines: Line[] = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) => void lines.push({ level, message, fields });
  const logger: LoggerLike = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
  let n = 0;
  const random = () => ((n = (n * 16807 + 11) % 2147483647) / 2147483647);
  const sessions = createSessions({ clock: machine.clock, newId: () => uuidFrom(random), logger, ...options });
  const left = await machine.build<Motor>(entry("motor", "left"));
  const right = await machine.build<Motor>(entry("motor", "right"));
  return { clock: machine.clock, sessions, lines, left, right };
}

const LEFT = "rdk:component:motor/left";
const RIGHT = "rdk:component:motor/right";

function expired(fn: () => void): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe("a session's life", () => {
  it("starts with a UUID and the 2 s default window, and lives as long as heartbeats come", async () => {
    const { clock, sessions } = await setup();
    const s = sessions.start();
    expect(s.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(s.heartbeatWindowMs).toBe(2_000);
    for (let i = 0; i < 10; i++) {
      clock.advance(1_500);
      sessions.heartbeat(s.id);
    }
    expect(sessions.list().map((v) => v.id)).toEqual([s.id]);
    clock.advance(2_000);
    expect(sessions.list()).toEqual([]);
    expect(expired(() => sessions.heartbeat(s.id))).toMatchObject({ code: Code.InvalidArgument, message: SESSION_EXPIRED });
  });

  it("refuses a heartbeat for an id it never issued with INVALID_ARGUMENT SESSION_EXPIRED", async () => {
    const { sessions } = await setup();
    expect(expired(() => sessions.heartbeat("3f1b8a4e-0000-4000-8000-000000000000"))).toMatchObject({
      code: Code.InvalidArgument,
      message: "SESSION_EXPIRED",
    });
  });

  it("takes its window from the options", async () => {
    const { clock, sessions } = await setup({ heartbeatWindowMs: 500 });
    const s = sessions.start();
    expect(s.heartbeatWindowMs).toBe(500);
    clock.advance(499);
    sessions.heartbeat(s.id);
    clock.advance(500);
    expect(expired(() => sessions.heartbeat(s.id))).toMatchObject({ message: SESSION_EXPIRED });
  });

  it("resumes a live session under the same id, and starts a new one when the old one has ended", async () => {
    const { clock, sessions } = await setup();
    const first = sessions.start();
    clock.advance(1_900);
    expect(sessions.start(first.id)).toEqual({ id: first.id, heartbeatWindowMs: 2_000, resumed: true });
    clock.advance(1_900);
    sessions.heartbeat(first.id);
    clock.advance(2_000);
    const second = sessions.start(first.id);
    expect(second.resumed).toBe(false);
    expect(second.id).not.toBe(first.id);
    expect(sessions.start("not-a-session").resumed).toBe(false);
  });

  it("refuses more sessions than allowed with RESOURCE_EXHAUSTED", async () => {
    const { clock, sessions } = await setup({ maxSessions: 2 });
    sessions.start();
    sessions.start();
    expect(expired(() => sessions.start())).toMatchObject({ code: Code.ResourceExhausted });
    clock.advance(2_000);
    expect(sessions.start().resumed).toBe(false);
  });
});

describe("the safety stop", () => {
  it("stops exactly the actuators driven in the lapsed session, and says which", async () => {
    const { clock, sessions, lines, left, right } = await setup();
    const quiet = sessions.start();
    const alive = sessions.start();
    await left.setPower(0.5);
    await right.setPower(0.5);
    sessions.associate(quiet.id, LEFT, left);
    sessions.associate(alive.id, RIGHT, right);
    expect(sessions.list().find((s) => s.id === quiet.id)?.driving).toEqual([LEFT]);

    clock.advance(1_000);
    sessions.heartbeat(alive.id);
    clock.advance(1_000);
    await sessions.settled();
    expect(await left.isMoving()).toBe(false);
    expect(await right.isMoving()).toBe(true);
    expect(lines.filter((l) => l.level === "warn")).toEqual([
      {
        level: "warn",
        message: `session ${quiet.id} ended without a heartbeat for 2000 ms: stopping ${LEFT}`,
        fields: { session: quiet.id, resources: [LEFT] },
      },
    ]);
    expect(lines.some((l) => l.level === "info" && l.message === `safety stop: stopped ${LEFT}`)).toBe(true);

    // The other session keeps its motor until it too falls silent (its last heartbeat was at 1 s).
    clock.advance(999);
    await sessions.settled();
    expect(await right.isMoving()).toBe(true);
    clock.advance(1);
    await sessions.settled();
    expect(await right.isMoving()).toBe(false);
  });

  it("leaves an actuator alone once another session, or a call without one, drove it last", async () => {
    const { clock, sessions, left, right } = await setup();
    const a = sessions.start();
    const b = sessions.start();
    await left.setPower(0.3);
    await right.setPower(0.3);
    sessions.associate(a.id, LEFT, left);
    sessions.associate(b.id, LEFT, left);
    sessions.associate(a.id, RIGHT, right);
    sessions.associate("", RIGHT, right);
    clock.advance(1_000);
    sessions.heartbeat(b.id);
    clock.advance(1_000);
    await sessions.settled();
    expect(sessions.list().map((s) => s.id)).toEqual([b.id]);
    expect(await left.isMoving()).toBe(true);
    expect(await right.isMoving()).toBe(true);
  });

  it("ends quietly when the session drove nothing", async () => {
    const { clock, sessions, lines } = await setup();
    const s = sessions.start();
    clock.advance(2_000);
    expect(lines).toEqual([{ level: "debug", message: `session ${s.id} ended: no heartbeat for 2000 ms`, fields: { session: s.id } }]);
  });

  it("stops the instance running under the name now, and logs a stop that fails", async () => {
    const failing = { stop: () => Promise.reject(new Error("driver not responding")) };
    const { clock, sessions, lines, left, right } = await setup({
      actuatorNamed: (name) => (name === LEFT ? left : name === RIGHT ? failing : undefined),
    });
    const s = sessions.start();
    await left.setPower(0.5);
    const stale = { stop: async () => {} };
    sessions.associate(s.id, LEFT, stale);
    sessions.associate(s.id, RIGHT, right);
    clock.advance(2_000);
    await sessions.settled();
    expect(await left.isMoving()).toBe(false);
    expect(lines.filter((l) => l.level === "error").map((l) => l.message)).toEqual([
      `safety stop: could not stop ${RIGHT}: driver not responding`,
    ]);
  });

  it("forgets everything without stopping on close", async () => {
    const { clock, sessions, left } = await setup();
    const s = sessions.start();
    await left.setPower(0.5);
    sessions.associate(s.id, LEFT, left);
    sessions.close();
    clock.advance(10_000);
    await sessions.settled();
    expect(await left.isMoving()).toBe(true);
    expect(clock.pending()).toBe(0);
  });
});

describe("calls under a session", () => {
  async function withRunner() {
    const parts = await setup();
    const operations = createOperations({ clock: parts.clock, newId: () => uuidFrom(Math.random) });
    return { ...parts, operations, runner: createCallRunner({ operations, sessions: parts.sessions }) };
  }
  const GO_FOR = "/viam.component.motor.v1.MotorService/GoFor";

  it("counts each call as a heartbeat and hands what it drove to its session", async () => {
    const { clock, sessions, runner, operations, left } = await withRunner();
    const s = sessions.start();
    clock.advance(1_500);
    await runner.run({ method: GO_FOR, sessionId: s.id }, async (call) => {
      expect(operations.list()[0]).toMatchObject({ method: GO_FOR, sessionId: s.id });
      await left.setPower(0.5);
      call.drove(left, LEFT);
    });
    clock.advance(1_500);
    expect(sessions.list().map((v) => v.driving)).toEqual([[LEFT]]);
    clock.advance(500);
    await sessions.settled();
    expect(await left.isMoving()).toBe(false);
  });

  it("refuses a call carrying an ended or unknown session with SESSION_EXPIRED, before it runs", async () => {
    const { clock, sessions, runner, operations } = await withRunner();
    const s = sessions.start();
    clock.advance(2_000);
    let ran = false;
    for (const id of [s.id, "made-up"]) {
      await expect(runner.run({ method: GO_FOR, sessionId: id }, async () => void (ran = true))).rejects.toMatchObject({
        code: Code.InvalidArgument,
        message: SESSION_EXPIRED,
      });
    }
    expect(ran).toBe(false);
    expect(operations.count()).toBe(0);
  });

  it("lets the calls that set sessions up ignore the session they carry", async () => {
    const { runner, operations } = await withRunner();
    const call = runner.begin({ method: "/viam.robot.v1.RobotService/StartSession", sessionId: "long-gone" });
    expect(operations.list()[0]).toMatchObject({ sessionId: "" });
    expect(call.sessionId).toBe("");
    call.finish();
  });
  it("lists an Authenticate call as an operation without its arguments, which hold the key", async () => {
    const { runner, operations } = await withRunner();
    const call = runner.begin({
      method: "/proto.rpc.v1.AuthService/Authenticate",
      sessionId: "",
      args: () => ({ entity: "key-id", credentials: { type: "api-key", payload: "the-secret-key" } }),
    });
    expect(operations.list()).toEqual([expect.objectContaining({ method: "/proto.rpc.v1.AuthService/Authenticate", arguments: {} })]);
    expect(JSON.stringify(operations.list())).not.toContain("the-secret-key");
    call.finish();
  });
});
