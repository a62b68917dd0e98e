// How big and how deep a configuration may be: past either limit it is refused in words, with the
// place, before anything walks it; up to the limits it is an ordinary configuration, and every
// walk over its values (the diff in the log, masking, equality, the protobuf Struct a module
// receives) copes with it. The same answers in XS as on Node.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  formatConfigDiff,
  maskSecrets,
  MAX_CONFIG_CHARACTERS,
  MAX_CONFIG_DEPTH,
  parseMachineConfig,
  resourceConfigEqual,
} from "../../core/index.js";
import { readStructJson, writeStructJson } from "../../targets/mcu/codec/struct-json.js";
import { createWireReader } from "../../targets/mcu/codec/wire-reader.js";
import { createWireWriter } from "../../targets/mcu/codec/wire-writer.js";
import { AddResourceRequestSchema } from "../../proto/gen/module/v1/module_pb.js";
import { wireComponentConfig } from "../../targets/linux/modules/module-client.js";
import { CoreInXs } from "../../tools/xs/core-in-xs.js";
import { error, parse } from "./helpers.js";

/** Arrays and objects taking turns, `levels` deep, with `leaf` at the bottom. */
function nested(levels: number, leaf: unknown = 1): unknown {
  let value: unknown = leaf;
  for (let i = levels - 1; i >= 0; i--) value = i % 2 === 0 ? [value] : { k: value };
  return value;
}

// The document is level 1, components 2, the entry 3, attributes 4: `deep` starts at level 5.
const ENTRY_LEVELS = 4;
const withDeep = (levels: number, leaf: unknown = 1) => ({
  components: [{ name: "s", api: "rdk:component:sensor", model: "fake", attributes: { deep: nested(levels, leaf) } }],
});
const atLimit = (leaf: unknown = 1) => withDeep(MAX_CONFIG_DEPTH - ENTRY_LEVELS, leaf);
const pastLimit = withDeep(MAX_CONFIG_DEPTH - ENTRY_LEVELS + 1);
/** The text of `withDeep(levels)`, made without recursion (JSON.stringify would overflow). */
const deepText = (levels: number) =>
  `{"components":[{"name":"s","api":"rdk:component:sensor","model":"fake","attributes":{"deep":${"[".repeat(levels)}${"]".repeat(levels)}}}]}`;
const DEEP = error("components[0].attributes.deep", `nested deeper than ${MAX_CONFIG_DEPTH} levels`);

describe("the nesting limit", () => {
  it("is 32 levels, the document itself being the first", () => {
    expect(MAX_CONFIG_DEPTH).toBe(32);
    expect(parseMachineConfig(JSON.stringify(atLimit())).issues).toEqual([]);
    expect(parseMachineConfig(JSON.stringify(pastLimit))).toEqual({ config: null, issues: [DEEP] });
  });

  it("refuses thousands of levels, as text and as data, naming the attribute", () => {
    expect(parseMachineConfig(deepText(100_000))).toEqual({ config: null, issues: [DEEP] });
    expect(parseMachineConfig(withDeep(100_000))).toEqual({ config: null, issues: [DEEP] });
    expect(parseMachineConfig("[".repeat(1_000_000))).toEqual({ config: null, issues: [error("[0][0][0][0]", DEEP.message)] });
  });

  it("counts only brackets outside strings, and names keys as written", () => {
    const inString = { components: [{ name: "s", api: "rdk:component:sensor", model: "fake", attributes: { text: "[{".repeat(500) + '\\"' } }] };
    expect(parseMachineConfig(JSON.stringify(inString)).issues).toEqual([]);
    const oddKey = { agent: { additional_networks: { 'my "net"': nested(70) } } };
    expect(parseMachineConfig(JSON.stringify(oddKey)).issues).toEqual([
      error('agent.additional_networks["my \\"net\\""][0]', DEEP.message),
    ]);
  });

  it("still says that data holding a cycle is not JSON", () => {
    const cyclic: Record<string, unknown> = { components: [] };
    cyclic.self = { again: cyclic };
    expect(parseMachineConfig(cyclic).issues).toEqual([
      error("", "is not JSON data (it holds a cycle or a value JSON cannot represent)"),
    ]);
  });
});

describe("the size limit", () => {
  const sized = (characters: number) => {
    const shell = JSON.stringify({ debug: false, log: [{ pattern: "", level: "info" }] });
    return shell.replace('"pattern":""', `"pattern":"${"x".repeat(characters - shell.length)}"`);
  };

  it("is 4 MiB of text; a larger file is refused with its size", () => {
    expect(MAX_CONFIG_CHARACTERS).toBe(4 * 1024 * 1024);
    expect(parseMachineConfig(sized(MAX_CONFIG_CHARACTERS)).config).not.toBeNull();
    expect(parseMachineConfig(sized(MAX_CONFIG_CHARACTERS + 1))).toEqual({
      config: null,
      issues: [error("", "is 4,194,305 characters long; a configuration may have at most 4,194,304 characters")],
    });
  });

  it("applies to data too, as the JSON it makes", () => {
    const data = JSON.parse(sized(MAX_CONFIG_CHARACTERS + 10)) as object;
    expect(parseMachineConfig(data).issues[0]?.message).toMatch(/^is 4,194,314 characters long/);
  });
});

describe("every walk over a configuration at the limit", () => {
  const before = parse(atLimit("a")).config;
  const after = parse(atLimit("b")).config;

  it("diffs it, naming the deep change", () => {
    const lines = formatConfigDiff(before, after);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^components\["s"\]\.attributes\.deep\[0\]\.k\[0\]\.k.*: "a" -> "b"$/);
  });

  it("masks it", () => {
    expect(maskSecrets(before).components).toEqual(before.components);
  });

  it("compares it", () => {
    expect(resourceConfigEqual(before.components[0]!, parse(atLimit("a")).config.components[0]!)).toBe(true);
    expect(resourceConfigEqual(before.components[0]!, after.components[0]!)).toBe(false);
  });

  it("turns it into a protobuf Struct and back, as modules receive it and as the MCU codec writes it", () => {
    const entry = before.components[0]!;
    const request = create(AddResourceRequestSchema, { config: wireComponentConfig(entry), dependencies: [] });
    const received = fromBinary(AddResourceRequestSchema, toBinary(AddResourceRequestSchema, request));
    expect(received.config?.attributes).toEqual(entry.attributes);

    const writer = createWireWriter();
    writeStructJson(writer, entry.attributes);
    const bytes = writer.finish();
    expect(readStructJson(createWireReader(bytes), bytes.length)).toEqual(entry.attributes);
  });
});

describe("the limits in XS", () => {
  let xs: CoreInXs;
  beforeAll(async () => {
    xs = await CoreInXs.start();
  });
  afterAll(() => xs.close());

  it("give the same answers as on Node", async () => {
    // Long strings, plain and full of escapes, are scanned without running out of stack.
    const longStrings = JSON.stringify({ components: [{ name: "s", attributes: { plain: "x".repeat(200_000), escaped: "\n\"".repeat(100_000) } }] });
    for (const text of [JSON.stringify(atLimit()), JSON.stringify(pastLimit), deepText(50_000), longStrings]) {
      expect((await xs.callRaw("parseMachineConfig", text)).json).toBe(JSON.stringify(parseMachineConfig(text)));
    }
  });
});
