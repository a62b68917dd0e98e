// Values on the wire, as properties: any JSON map a caller sends as a DoCommand comes back from
// the echoing fake unchanged through the socket, and a float field reads back as the shortest
// decimal of the 32-bit float sent (so a figure written with few digits reads as written); a
// method's extra reaches the serving resource as the caller wrote it.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { Code, type CommandPayload, type GenericComponent, type Resource, type Sensor } from "../../core/index.js";
import { registerComponentServices } from "../../targets/linux/server/rpc/index.js";
import { createRemoteResource, createUnixSocketTransport, listenOnUnixSocket } from "../../targets/linux/remote/index.js";
import { fromFloat32 } from "../../targets/linux/remote/wire-values.js";
import { createServedMachine, failure, lookupOver, nameOf, type ServedMachine } from "./served-machine.js";

let served: ServedMachine;
beforeAll(async () => {
  served = await createServedMachine();
});
afterAll(() => served?.close());

describe("DoCommand through the socket", () => {
  it("returns any JSON map unchanged", async () => {
    const echo = served.remote<GenericComponent>("rdk:component:generic/g1");
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 })), async (command) => {
        expect(await echo.doCommand(command)).toEqual(command);
      }),
      { numRuns: 100 },
    );
  });

  it("refuses a command that is not a map", async () => {
    const echo = served.remote<GenericComponent>("rdk:component:generic/g1");
    expect(await failure(echo.doCommand([1, 2] as never))).toEqual({ code: Code.InvalidArgument, message: "command: must be a map, got a list" });
  });
});

describe("extra", () => {
  it("reaches the serving resource as the caller wrote it, and stays absent when not given", async () => {
    const seen: Array<CommandPayload | undefined> = [];
    const recorder: Sensor = {
      name: nameOf("rdk:component:sensor/rec"),
      async getReadings(extra) {
        seen.push(extra);
        return {};
      },
      async doCommand(command) {
        return command;
      },
      async close() {},
    };
    const path = join(served.dir, "rec.sock");
    const resources = new Map<string, Resource>([["rdk:component:sensor/rec", recorder]]);
    const server = await listenOnUnixSocket(path, (router) => registerComponentServices(router, lookupOver(resources)));
    const transport = createUnixSocketTransport(path);
    try {
      const sensor = createRemoteResource(recorder.name, transport) as Sensor;
      await sensor.getReadings({ window_ms: 250, filters: ["median", { order: 3 }], raw: false, skip: undefined });
      await sensor.getReadings();
      expect(seen).toEqual([{ window_ms: 250, filters: ["median", { order: 3 }], raw: false }, undefined]);
    } finally {
      transport.close();
      await server.close();
    }
  });
});

describe("fromFloat32", () => {
  it("gives back the same 32-bit float", () => {
    fc.assert(
      fc.property(fc.float({ noNaN: true, noDefaultInfinity: true }), (f) => {
        expect(Math.fround(fromFloat32(f))).toBe(f);
      }),
    );
  });

  it("reads a decimal of up to 6 significant digits back as written", () => {
    fc.assert(
      fc.property(fc.integer({ min: -999_999, max: 999_999 }), fc.integer({ min: -10, max: 10 }), (mantissa, exponent) => {
        const written = Number(`${mantissa}e${exponent}`);
        expect(fromFloat32(Math.fround(written))).toBe(written);
      }),
    );
  });
});
