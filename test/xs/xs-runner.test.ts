import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { XsWorker } from "../../tools/xs/xs-worker.js";

describe("the XS runner", () => {
  let xs: XsWorker;
  beforeAll(() => {
    xs = new XsWorker();
  });
  afterAll(() => xs.close());

  it("evaluates code in XS, which has no console, timers or Intl", async () => {
    await xs.evaluate(`globalThis.handleCommand = (b) => new TextEncoder().encode(
      JSON.stringify([typeof console, typeof setTimeout, typeof Intl, new TextDecoder().decode(b)])).buffer;`);
    const { reply, meters } = await xs.command("ping");
    expect(JSON.parse(reply)).toEqual(["undefined", "undefined", "undefined", "ping"]);
    expect(meters.compute).toBeGreaterThan(0);
  });

  it("reports an exception thrown in XS as an error, and keeps working", async () => {
    await expect(xs.evaluate(`throw new RangeError("bad pin")`)).rejects.toThrow(/bad pin/);
    expect((await xs.command("again")).reply).toContain("again");
  });
});
