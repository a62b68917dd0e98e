// Randomly damaged configurations (a fixed sample, so failures reproduce) give the same
// parseMachineConfig answer, byte for byte, in XS as on Node; as data and as text.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { parseMachineConfig } from "../../core/index.js";
import { CoreInXs } from "../../tools/xs/core-in-xs.js";
import { mutate, mutation, valid } from "./mutation-arbitraries.js";

const inputs = fc
  .sample(fc.array(mutation, { minLength: 1, maxLength: 6 }), { seed: 20240611, numRuns: 120 })
  .map((mutations) => mutate(valid, mutations));

describe("damaged configurations in XS", () => {
  let xs: CoreInXs;
  beforeAll(async () => {
    xs = await CoreInXs.start();
  });
  afterAll(() => xs.close());

  it("give the same answer as on Node", async () => {
    for (const input of inputs) {
      const text = JSON.stringify(input, null, 1);
      expect((await xs.callRaw("parseMachineConfig", text)).json, text).toBe(JSON.stringify(parseMachineConfig(text)));
      if (input !== null && typeof input === "object") {
        expect((await xs.callRaw("parseMachineConfig", input)).json).toBe(JSON.stringify(parseMachineConfig(input)));
      }
    }
  });
});
