// The resource lookup every handler starts with: simple and full names, and the three ways a
// name can fail to reach a resource (not configured, not ready, not of this API).
import { afterEach, describe, expect, it } from "vitest";
import { Code, createResourceLookup, SvcError, type Resource } from "../../../core/index.js";
import { createRpcMachine, entry, type RpcMachine } from "./rpc-machine.js";

let machine: RpcMachine | undefined;
afterEach(async () => {
  await machine?.close();
  machine = undefined;
});

function thrown(fn: () => unknown): SvcError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SvcError) return e;
    throw e;
  }
  throw new Error("expected a throw");
}

describe("createResourceLookup over the graph engine", () => {
  it("finds a READY resource by simple name and by full name", async () => {
    machine = await createRpcMachine([entry("sensor", "temp"), entry("motor", "temp")]);
    const sensor = machine.lookup.resource("rdk:component:sensor", "temp");
    expect(sensor.name).toEqual({ namespace: "rdk", type: "component", subtype: "sensor", name: "temp" });
    expect(machine.lookup.resource("rdk:component:sensor", "rdk:component:sensor/temp")).toBe(sensor);
    // The same simple name under another API is another resource.
    expect(machine.lookup.resource("rdk:component:motor", "temp").name.subtype).toBe("motor");
  });

  it("answers NOT_FOUND for a name nothing is configured under", async () => {
    machine = await createRpcMachine([entry("sensor", "temp")]);
    const lookup = machine.lookup;
    expect(thrown(() => lookup.resource("rdk:component:sensor", "x"))).toMatchObject({
      code: Code.NotFound,
      message: 'no rdk:component:sensor named "x"',
    });
    expect(thrown(() => lookup.resource("rdk:component:motor", "temp"))).toMatchObject({
      code: Code.NotFound,
      message: 'no rdk:component:motor named "temp"',
    });
  });

  it("answers UNAVAILABLE with the resource's last error while it is configured but not ready", async () => {
    machine = await createRpcMachine([entry("motor", "left", { encoder: "enc" })]);
    const status = machine.engine.resourceStatus("rdk:component:motor/left");
    expect(status?.state).toBe("UNCONFIGURED");
    const error = thrown(() => machine!.lookup.resource("rdk:component:motor", "left"));
    expect(error.code).toBe(Code.Unavailable);
    expect(error.message).toBe(`rdk:component:motor/left is not ready: ${status!.error}`);
    expect(error.message).toContain("enc");
  });

  it("answers INVALID_ARGUMENT for an empty name, a malformed one, and a full name of another API; NOT_FOUND for a remote's no remote lists", async () => {
    machine = await createRpcMachine([entry("sensor", "temp")]);
    const lookup = machine.lookup;
    expect(thrown(() => lookup.resource("rdk:component:sensor", ""))).toMatchObject({
      code: Code.InvalidArgument,
      message: "name: the request names no rdk:component:sensor",
    });
    expect(thrown(() => lookup.resource("rdk:component:sensor", "te mp")).code).toBe(Code.InvalidArgument);
    expect(thrown(() => lookup.resource("rdk:component:sensor", "remote1:temp"))).toMatchObject({
      code: Code.NotFound,
      message: 'no rdk:component:sensor named "remote1:temp"',
    });
    expect(thrown(() => lookup.resource("rdk:component:motor", "rdk:component:sensor/temp"))).toMatchObject({
      code: Code.InvalidArgument,
      message: 'name: "rdk:component:sensor/temp" is a rdk:component:sensor, not a rdk:component:motor',
    });
  });

  it("works over any source with the engine's two methods, and refuses a resource of the wrong API", () => {
    const wrong: Resource = { name: { namespace: "rdk", type: "component", subtype: "motor", name: "m" }, close: async () => {} };
    const lookup = createResourceLookup({
      resource: (full) => (full === "rdk:component:sensor/m" ? wrong : undefined),
      resourceStatus: (full) => (full === "rdk:component:sensor/busy" ? { state: "CONFIGURING" } : undefined),
    });
    expect(thrown(() => lookup.resource("rdk:component:sensor", "m"))).toMatchObject({
      code: Code.InvalidArgument,
      message: "rdk:component:motor/m is not a rdk:component:sensor",
    });
    expect(thrown(() => lookup.resource("rdk:component:sensor", "busy"))).toMatchObject({
      code: Code.Unavailable,
      message: "rdk:component:sensor/busy is not ready (CONFIGURING)",
    });
  });
});
