// Readings and DoCommand results as the wire's Value and Struct: JSON's rules, and a clear
// INTERNAL error naming the place of anything that cannot be sent.
import { create, toJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Code } from "../../../core/index.js";
import { toJsonObject, toValue, toValueMap } from "../../../core/rpc/components/struct-value.js";

const valueJson = (v: unknown) => toJson(ValueSchema, create(ValueSchema, toValue(v, "reading")));

describe("toValue and toJsonObject", () => {
  it("carry any JSON value unchanged", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        // -0 is 0 in JSON text (anywhere in the value); compare both sides as JSON text reads.
        const asText = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;
        expect(asText(valueJson(json))).toEqual(asText(json));
      }),
    );
  });

  it("keep a member named __proto__ as a member", () => {
    const json = JSON.parse('{"__proto__": {"x": 1}, "y": 2}');
    expect(Object.keys(toJsonObject(json, "result"))).toEqual(["__proto__", "y"]);
    expect(Object.keys(toValueMap(json, "readings"))).toEqual(["__proto__", "y"]);
  });

  it("follow JSON's rules for what is not JSON: undefined members left out, toJSON honoured, bigint as number", () => {
    const when = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));
    expect(valueJson({ a: undefined, b: 1, at: when, big: 12n, list: [undefined, 2] })).toEqual({
      b: 1,
      at: "2024-01-02T03:04:05.000Z",
      big: 12,
      list: [null, 2],
    });
    expect(toJsonObject({ a: undefined, f: () => 1, n: 10n, d: when }, "result")).toEqual({ n: 10, d: "2024-01-02T03:04:05.000Z" });
    expect(Object.keys(toValueMap({ a: 1, gone: undefined }, "readings"))).toEqual(["a"]);
  });

  it("refuse a function inside a list and a cycle, naming where, as INTERNAL", () => {
    expect(() => toValue({ list: [1, () => 2] }, "readings.x")).toThrow(
      expect.objectContaining({ code: Code.Internal, message: "readings.x.list[1]: a function cannot be sent" }),
    );
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => toJsonObject(loop, "result")).toThrow(expect.objectContaining({ code: Code.Internal }));
  });
});
