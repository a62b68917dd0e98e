// Errors through remote resources: what the serving fake raises reaches the caller with its gRPC
// code and message, also after a second hop (a module's error through svc-server); an absent
// peer is UNAVAILABLE naming the resource; arguments the wire cannot carry are refused before
// anything is sent; unknown APIs and closed resources say so.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { Code, SvcError, type Board, type Encoder, type Motor, type Sensor, type Servo } from "../../core/index.js";
import { createRemoteResource, createUnixSocketTransport, listenOnUnixSocket, RemoteCallError } from "../../targets/linux/remote/index.js";
import { createServedMachine, failure, nameOf, type ServedMachine } from "./served-machine.js";

let served: ServedMachine;
beforeAll(async () => {
  served = await createServedMachine();
});
afterAll(() => served?.close());

// Each case: a call on the local fake and the same call through the socket.
const cases: Array<{ what: string; fullName: string; call: (r: never) => Promise<unknown>; code: number }> = [
  {
    what: "a servo angle out of range",
    fullName: "rdk:component:servo/sv1",
    call: (s: Servo) => s.move(200),
    code: Code.InvalidArgument,
  },
  {
    what: "an encoder asked for degrees",
    fullName: "rdk:component:encoder/e1",
    call: (e: Encoder) => e.getPosition("angle_degrees"),
    code: Code.InvalidArgument,
  },
  {
    what: "an analog reader the board does not have",
    fullName: "rdk:component:board/b1",
    call: (b: Board) => b.readAnalogReader("knob"),
    code: Code.NotFound,
  },
  {
    what: "a pin the board does not have (a HAL error)",
    fullName: "rdk:component:board/b1",
    call: (b: Board) => b.setGPIO("99", true),
    code: Code.InvalidArgument,
  },
  {
    what: "a pin held by an interrupt",
    fullName: "rdk:component:board/b1",
    call: (b: Board) => b.setGPIO("13", true),
    code: Code.FailedPrecondition,
  },
  {
    what: "an analog value out of range",
    fullName: "rdk:component:board/b1",
    call: (b: Board) => b.writeAnalog("9", 256),
    code: Code.InvalidArgument,
  },
];

describe("errors raised by the serving resource", () => {
  for (const c of cases) {
    it(`keep their code and message: ${c.what}`, async () => {
      const local = await failure(c.call(served.local(c.fullName) as never));
      const remote = await failure(c.call(served.remote(c.fullName) as never));
      expect(local).not.toBe("resolved");
      expect(remote).toEqual(local);
    });
  }

  it("arrive as RemoteCallError, naming the resource and the RPC", async () => {
    const thrown = await served.remote<Servo>("rdk:component:servo/sv1").move(200).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(RemoteCallError);
    const error = thrown as RemoteCallError;
    expect(error).toMatchObject({ code: Code.InvalidArgument, resource: "rdk:component:servo/sv1", rpc: "Move", answered: true });
    expect(error.message).toBe("angle 200 is outside 0-180 degrees");
  });

  it("keep their code and message through a second hop", async () => {
    const relayed = await served.relay();
    for (const c of cases) {
      const local = await failure(c.call(served.local(c.fullName) as never));
      expect(await failure(c.call(relayed(c.fullName) as never)), c.what).toEqual(local);
    }
  });

  it("name a resource the peer does not serve as NOT_FOUND", async () => {
    const ghost = served.remote<Sensor>("rdk:component:sensor/ghost");
    expect(await failure(ghost.getReadings())).toEqual({ code: Code.NotFound, message: 'no rdk:component:sensor named "ghost"' });
  });
});

describe("a peer that cannot be reached", () => {
  it("is UNAVAILABLE, naming the resource and why", async () => {
    const transport = createUnixSocketTransport(join(served.dir, "nobody.sock"));
    try {
      const sensor = createRemoteResource(nameOf("rdk:component:sensor/s1"), transport) as Sensor;
      const thrown = await sensor.getReadings().catch((e: unknown) => e);
      expect(thrown).toBeInstanceOf(RemoteCallError);
      expect(thrown).toMatchObject({ code: Code.Unavailable, answered: false });
      expect((thrown as Error).message).toMatch(/^rdk:component:sensor\/s1 cannot be reached: connect ENOENT .*nobody\.sock$/);
    } finally {
      transport.close();
    }
  });
});

describe("a peer that does not serve the API", () => {
  it("is UNIMPLEMENTED, naming the resource and the RPC", async () => {
    const path = join(served.dir, "bare.sock");
    const server = await listenOnUnixSocket(path, () => {});
    const transport = createUnixSocketTransport(path);
    try {
      const sensor = createRemoteResource(nameOf("rdk:component:sensor/s1"), transport) as Sensor;
      expect(await failure(sensor.getReadings())).toEqual({
        code: Code.Unimplemented,
        message: "rdk:component:sensor/s1: the peer does not serve GetReadings for this API (HTTP 404)",
      });
    } finally {
      transport.close();
      await server.close();
    }
  });
});

describe("arguments the wire cannot carry", () => {
  it("are refused before sending, as invalid arguments", async () => {
    const servo = served.remote<Servo>("rdk:component:servo/sv1");
    expect(await failure(servo.move(45.5))).toEqual({ code: Code.InvalidArgument, message: "angle_deg must be a whole number from 0 to 4294967295, got 45.5" });
    const board = served.remote<Board>("rdk:component:board/b1");
    expect(await failure(board.setPWMFrequency("12", -5))).toMatchObject({ code: Code.InvalidArgument, message: expect.stringMatching(/^frequency_hz must be a whole number/) });
    expect(await failure(board.writeAnalog("9", 1.5))).toMatchObject({ code: Code.InvalidArgument, message: expect.stringMatching(/^value must be a whole number/) });
    const sensor = served.remote<Sensor>("rdk:component:sensor/s1");
    // As in JSON, a member that is a function is left out; in a list, where it cannot be, it is refused.
    expect(await sensor.doCommand({ run: { callback: () => 1, keep: 1 } })).toEqual({ run: { keep: 1 } });
    expect(await failure(sensor.doCommand({ steps: [Symbol("x")] }))).toEqual({
      code: Code.InvalidArgument,
      message: "command.steps[0]: a symbol cannot be sent",
    });
    expect(await failure(sensor.getReadings({ at: [1, () => 2] }))).toEqual({
      code: Code.InvalidArgument,
      message: "extra.at[1]: a function cannot be sent",
    });
  });
});

describe("what cannot be a remote resource", () => {
  it("an API svc does not serve is refused with the list of those it does", () => {
    let thrown: unknown;
    try {
      createRemoteResource(nameOf("acme:component:gizmo/g"), served.transport);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(SvcError);
    expect(thrown).toMatchObject({ code: Code.Unimplemented });
    expect((thrown as Error).message).toMatch(/^acme:component:gizmo\/g: API acme:component:gizmo has no remote client; remote resources can be rdk:component:sensor, /);
  });

  it("a closed remote resource refuses calls, while the resource keeps running on the peer", async () => {
    const motor = served.remote<Motor>("rdk:component:motor/m1");
    await motor.close();
    expect(await failure(motor.getPosition())).toEqual({ code: Code.Unavailable, message: "rdk:component:motor/m1 has been closed" });
    expect(await served.remote<Motor>("rdk:component:motor/m1").getProperties()).toEqual({ positionReporting: true });
  });
});
