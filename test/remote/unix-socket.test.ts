// The unix socket server and transport: the socket is private to its owner and gone after
// close; a socket left by a killed process is replaced, a live one or a plain file is not;
// closing is prompt and cancels calls in flight; the same transport reaches a server restarted
// on the same path; a closed transport refuses calls.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { lstat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Code, type Motor, type Sensor } from "../../core/index.js";
import { registerComponentServices } from "../../targets/linux/server/rpc/index.js";
import { listenOnUnixSocket, MAX_SOCKET_PATH_BYTES } from "../../targets/linux/remote/index.js";
import { ListenError } from "../../targets/linux/system/index.js";
import { eventually } from "../helpers/eventually.js";
import { createServedMachine, failure, lookupOver, type ServedMachine } from "./served-machine.js";

let served: ServedMachine;
beforeEach(async () => {
  served = await createServedMachine();
});
afterEach(() => served?.close());

const SENSOR = "rdk:component:sensor/s1";
const noRoutes = () => {};

/** Starts a process that listens on `path` and kills it, leaving its socket file behind. */
async function leaveStaleSocket(path: string): Promise<void> {
  const script = `require("node:net").createServer().listen(${JSON.stringify(path)}, () => process.stdout.write("ready"))`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    await once(child.stdout!, "data");
  } finally {
    process.kill(child.pid!, "SIGKILL");
    if (child.exitCode === null && child.signalCode === null) await once(child, "exit");
  }
}

describe("listenOnUnixSocket", () => {
  it("makes the socket readable and writable by its owner only, and removes it on close", async () => {
    const stat = await lstat(served.socketPath);
    expect(stat.isSocket()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o600);
    await served.stop();
    expect(existsSync(served.socketPath)).toBe(false);
  });

  it("replaces the socket a killed process left, and the transport reaches the new server", async () => {
    await served.stop();
    await leaveStaleSocket(served.socketPath);
    expect((await lstat(served.socketPath)).isSocket()).toBe(true);
    await served.serve();
    expect(await served.remote<Sensor>(SENSOR).getReadings()).toMatchObject({ temp: 21.5 });
  });

  it("refuses a path where a server answers, a file that is not a socket, and a path too long", async () => {
    await expect(listenOnUnixSocket(served.socketPath, noRoutes)).rejects.toThrow(/m\.sock: another process is serving on it$/);
    expect(await served.remote<Sensor>(SENSOR).getReadings()).toMatchObject({ temp: 21.5 });

    const plain = join(served.dir, "notes.txt");
    await writeFile(plain, "keep me");
    await expect(listenOnUnixSocket(plain, noRoutes)).rejects.toThrow(/notes\.txt: exists and is not a socket; not replacing it$/);
    expect(existsSync(plain)).toBe(true);

    const long = join(served.dir, "x".repeat(MAX_SOCKET_PATH_BYTES));
    const thrown = await listenOnUnixSocket(long, noRoutes).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(ListenError);
    expect((thrown as Error).message).toMatch(/a unix socket path may be at most 103 bytes, this one is \d+$/);
  });

  it("closes promptly while a client holds an idle connection", async () => {
    const transport = served.transport;
    expect(await served.remote<Sensor>(SENSOR).getReadings()).toMatchObject({ temp: 21.5 });
    // The client keeps its HTTP/2 connection open; close() must not wait for it to go idle.
    await served.stop();
    expect(transport.closed).toBe(false);
    expect(existsSync(served.socketPath)).toBe(false);
  });

  it("cancels a call in flight on close: the motor is stopped and the caller told CANCELLED", async () => {
    const motor = served.remote<Motor>("rdk:component:motor/m1");
    const going = failure(motor.goFor(60, 100));
    await eventually(async () => ((await motor.isMoving()) ? true : undefined), "the motor to start");
    await served.stop();
    expect(await going).toEqual({ code: Code.Canceled, message: "GoFor on rdk:component:motor/m1 was cancelled; it has been stopped" });
    expect(await served.local<Motor>("rdk:component:motor/m1").isMoving()).toBe(false);
  });

  it("serves calls through its interceptors", async () => {
    await served.stop();
    const seen: string[] = [];
    const server = await listenOnUnixSocket(served.socketPath, (router) => registerComponentServices(router, lookupOver(new Map())), {
      interceptors: [(next) => async (req) => (seen.push(req.method.name), next(req))],
    });
    try {
      expect(await failure(served.remote<Sensor>(SENSOR).getReadings())).toEqual({ code: Code.NotFound, message: 'no rdk:component:sensor named "s1"' });
      expect(seen).toEqual(["GetReadings"]);
    } finally {
      await server.close();
    }
  });
});

describe("createUnixSocketTransport", () => {
  it("reaches a server restarted on the same path, failing as UNAVAILABLE while it is down", async () => {
    const sensor = served.remote<Sensor>(SENSOR);
    expect(await sensor.getReadings()).toMatchObject({ temp: 21.5 });
    await served.stop();
    const down = await failure(sensor.getReadings());
    expect(down).toMatchObject({ code: Code.Unavailable, message: expect.stringMatching(/^rdk:component:sensor\/s1 cannot be reached: /) });
    await served.serve();
    expect(await sensor.getReadings()).toMatchObject({ temp: 21.5 });
    await served.stop();
    await served.serve();
    expect(await sensor.getReadings()).toMatchObject({ temp: 21.5 });
  });

  it("refuses every call once closed, and stays closed", async () => {
    const sensor = served.remote<Sensor>(SENSOR);
    expect(await sensor.getReadings()).toMatchObject({ temp: 21.5 });
    served.transport.close();
    served.transport.close();
    expect(served.transport.closed).toBe(true);
    expect(await failure(sensor.getReadings())).toEqual({
      code: Code.Unavailable,
      message: `rdk:component:sensor/s1 cannot be reached: the connection to ${served.socketPath} has been closed`,
    });
  });
});
