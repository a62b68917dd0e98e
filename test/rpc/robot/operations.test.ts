// Operations: every call in flight listed with its method, request, start time and session;
// cancelling one aborts it (its hooks run, it answers CANCELED) and BlockForOperation waits for it.
import { describe, expect, it } from "vitest";
import {
  Code,
  createManualClock,
  createOperations,
  SvcError,
  uuidFrom,
  type LoggerLike,
  type RunningOperation,
} from "../../../core/index.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function seeded(seed = 1): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

function setup(options: { maxArgumentsLength?: number; logger?: LoggerLike } = {}) {
  const clock = createManualClock(1_700_000_000_000);
  const random = seeded(7);
  const operations = createOperations({ clock, newId: () => uuidFrom(random), ...options });
  return { clock, operations };
}

/** A call that runs until it is cancelled, as a GoFor that only a stop ends. */
function untilCancelled(call: RunningOperation): Promise<string> {
  return new Promise((resolve) => call.onCancel(() => resolve("stopped")));
}

describe("operation ids", () => {
  it("are version-4 UUIDs", () => {
    const random = seeded(42);
    const ids = Array.from({ length: 50 }, () => uuidFrom(random));
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(50);
    expect(uuidFrom(() => 0)).toBe("00000000-0000-4000-8000-000000000000");
    expect(uuidFrom(() => 0.9999999)).toBe("ffffffff-ffff-4fff-bfff-ffffffffffff");
  });
});

describe("listing", () => {
  it("lists each call in flight with its method, request, start time and session, oldest first", async () => {
    const { clock, operations } = setup();
    const a = operations.begin({ method: "/viam.component.motor.v1.MotorService/GoFor", sessionId: "s-1", args: () => ({ name: "m1", rpm: 60 }) });
    clock.advance(250);
    const b = operations.begin({ method: "/viam.component.sensor.v1.SensorService/GetReadings" });
    expect(operations.list()).toEqual([
      { id: a.id, method: "/viam.component.motor.v1.MotorService/GoFor", arguments: { name: "m1", rpm: 60 }, started: 1_700_000_000_000, sessionId: "s-1" },
      { id: b.id, method: "/viam.component.sensor.v1.SensorService/GetReadings", arguments: {}, started: 1_700_000_000_250, sessionId: "" },
    ]);
    expect(a.id).toMatch(UUID);
    expect(a.id).not.toBe(b.id);
    a.finish();
    expect(operations.list().map((o) => o.id)).toEqual([b.id]);
    b.finish();
    expect(operations.list()).toEqual([]);
    expect(operations.count()).toBe(0);
  });

  it("leaves out the caller's own operation, as GetOperations does", () => {
    const { operations } = setup();
    const other = operations.begin({ method: "/x/Other" });
    const me = operations.begin({ method: "/viam.robot.v1.RobotService/GetOperations" });
    expect(operations.list(me).map((o) => o.id)).toEqual([other.id]);
  });

  it("turns the request into JSON only when listed, and only once", () => {
    const { operations } = setup();
    let conversions = 0;
    operations.begin({ method: "/x/Y", args: () => (conversions++, { name: "m1" }) });
    expect(conversions).toBe(0);
    operations.list();
    operations.list();
    expect(conversions).toBe(1);
  });

  it("lists an overlong request by its length, and odd requests in a readable form", () => {
    const { operations } = setup({ maxArgumentsLength: 64 });
    operations.begin({ method: "/x/Big", args: () => ({ data: "x".repeat(100) }) });
    operations.begin({ method: "/x/Scalar", args: () => 3 });
    operations.begin({ method: "/x/Broken", args: () => { throw new Error("cannot encode"); } });
    const byMethod = Object.fromEntries(operations.list().map((o) => [o.method, o.arguments]));
    expect(byMethod).toEqual({
      "/x/Big": { truncated: true, length: JSON.stringify({ data: "x".repeat(100) }).length },
      "/x/Scalar": { value: 3 },
      "/x/Broken": { unreadable: "cannot encode" },
    });
  });
});

describe("cancelling", () => {
  it("aborts a long call: its hooks run, it answers CANCELED and leaves the list", async () => {
    const { operations } = setup();
    const running = operations.run({ method: "/viam.component.motor.v1.MotorService/GoFor" }, untilCancelled);
    const [op] = operations.list();
    operations.cancel(op!.id);
    const error = await running.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcError);
    expect(error).toMatchObject({ code: Code.Canceled });
    expect((error as Error).message).toContain(op!.id);
    expect(operations.list()).toEqual([]);
  });

  it("answers with the reason given, even when the handler failed on its way out", async () => {
    const { operations } = setup();
    const running = operations.run({ method: "/x/Y" }, async (call) => {
      await untilCancelled(call);
      throw new Error("motor stopped mid-move");
    });
    operations.cancel(operations.list()[0]!.id, new SvcError(Code.DeadlineExceeded, "deadline passed"));
    await expect(running).rejects.toMatchObject({ code: Code.DeadlineExceeded, message: "deadline passed" });
  });

  it("says NOT_FOUND for an id that is not running", async () => {
    const { operations } = setup();
    const done = operations.begin({ method: "/x/Y" });
    done.finish();
    for (const id of [done.id, "not-an-id"]) {
      let thrown: unknown;
      try {
        operations.cancel(id);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toMatchObject({ code: Code.NotFound });
    }
  });

  it("runs a hook registered after the cancel at once, and none after the call ended", () => {
    const { operations } = setup();
    const op = operations.begin({ method: "/x/Y" });
    op.cancel();
    let late = 0;
    op.onCancel(() => late++);
    expect(late).toBe(1);
    expect(op.cancelled()).toBe(true);

    const ended = operations.begin({ method: "/x/Z" });
    let after = 0;
    ended.onCancel(() => after++);
    ended.finish();
    ended.cancel();
    expect(after).toBe(0);
    expect(ended.cancelled()).toBe(false);
  });

  it("runs every hook once even when one throws, and reports the failure", () => {
    const lines: string[] = [];
    const logger: LoggerLike = { debug() {}, info() {}, warn() {}, error: (m) => void lines.push(m) };
    const { operations } = setup({ logger });
    const op = operations.begin({ method: "/x/Y" });
    let ran = 0;
    op.onCancel(() => {
      throw new Error("hook broke");
    });
    const forget = op.onCancel(() => (ran += 100));
    op.onCancel(() => ran++);
    forget();
    op.cancel();
    op.cancel();
    expect(ran).toBe(1);
    expect(lines).toEqual(["cancelling /x/Y: a cancel hook failed: hook broke"]);
  });

  it("cancels every other call at once (StopAll)", async () => {
    const { operations } = setup();
    const a = operations.run({ method: "/x/A" }, untilCancelled);
    const b = operations.run({ method: "/x/B" }, untilCancelled);
    const me = operations.begin({ method: "/viam.robot.v1.RobotService/StopAll" });
    expect(operations.cancelAll(me)).toBe(2);
    await expect(a).rejects.toMatchObject({ code: Code.Canceled });
    await expect(b).rejects.toMatchObject({ code: Code.Canceled });
    expect(me.cancelled()).toBe(false);
    expect(operations.list().map((o) => o.method)).toEqual(["/viam.robot.v1.RobotService/StopAll"]);
  });

  it("answers a normal result when nobody cancelled", async () => {
    const { operations } = setup();
    await expect(operations.run({ method: "/x/Y" }, async () => 7)).resolves.toBe(7);
    await expect(operations.run({ method: "/x/Y" }, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
  });
});

describe("waiting (BlockForOperation)", () => {
  it("resolves when the operation ends, and at once for an id that is not running", async () => {
    const { operations } = setup();
    const op = operations.begin({ method: "/x/Y" });
    let ended = false;
    const waiting = operations.wait(op.id).then(() => (ended = true));
    await Promise.resolve();
    expect(ended).toBe(false);
    op.finish();
    await waiting;
    expect(ended).toBe(true);
    await operations.wait(op.id);
    await operations.wait("never-was");
  });
});
