// The MCU codec inside XS: samples of every served message (seeded, so every run is the same)
// are encoded in a real XS worker and compared byte for byte with protobuf-es on Node, the
// server's codec; protobuf-es's bytes decoded in XS give the shapes the codec gives on Node.
import { create, toBinary } from "@bufbuild/protobuf";
import fc from "fast-check";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScenarioInXs } from "../../tools/xs/scenario-in-xs.js";
import { runCodecScenario, type CodecScenarioInput } from "./codec-scenario.js";
import { initOf, loadServedServices, reachableMessages, tableMessages } from "./served-messages.js";
import { hexOf, toTagged } from "./tagged-json.js";

let xs: ScenarioInXs;
const input: CodecScenarioInput = { encode: [], decode: [] };
const expected: string[] = [];

beforeAll(async () => {
  const messages = tableMessages(reachableMessages(await loadServedServices()));
  messages.forEach((desc, index) => {
    for (const init of fc.sample(initOf(desc), { numRuns: 6, seed: 419 + index })) {
      const bytes = hexOf(toBinary(desc, create(desc, init as never)));
      input.encode.push({ index, init: toTagged(init) });
      input.decode.push({ index, hex: bytes });
      expected.push(bytes);
    }
  });
  xs = await ScenarioInXs.start(join(import.meta.dirname, "codec-scenario.ts"));
});

afterAll(() => xs?.close());

describe("the MCU codec in XS", () => {
  it("encodes every served message as protobuf-es does on Node, and decodes as on Node", async () => {
    const inXs = JSON.parse(await xs.run("runCodecScenario", input)) as { encoded: string[]; decoded: unknown[]; error?: string };
    expect(inXs.error).toBeUndefined();
    expect(inXs.encoded).toEqual(expected);
    const onNode = await runCodecScenario(JSON.parse(JSON.stringify(input)) as CodecScenarioInput);
    expect(inXs.decoded).toEqual(onNode.decoded);
  });
});
