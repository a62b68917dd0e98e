// The web app's config editor places each problem svc-server's validator finds on the text where
// its path is written, and diffs two configs line by line. Both are plain functions of the page.
import { describe, expect, it } from "vitest";
import { parseMachineConfig } from "../../core/index.js";
import { configProblems } from "../../targets/web-ui/config-problems.js";
import { jsonPlaces, placeOf, segmentsOf } from "../../targets/web-ui/json-places.js";
import { lineDiff } from "../../targets/cloud/web/line-diff.js";

const at = (text: string, place: { from: number; to: number } | undefined) => (place ? text.slice(place.from, place.to) : undefined);

describe("where a config's paths are written", () => {
  const text = `{\n  "components": [\n    { "name": "a", "attributes": { "my key": [1, {"x": true}] } },\n    { "name": "b" }\n  ],\n  "debug": false\n}`;
  const { places, fault } = jsonPlaces(text);

  it("places object members at their key and array elements where they start", () => {
    expect(fault).toBeUndefined();
    expect(at(text, places.get("components"))).toBe('"components"');
    expect(at(text, places.get("components[1]"))).toBe("{");
    expect(at(text, places.get("components[1].name"))).toBe('"name"');
    expect(places.get("components[1].name")!.from).toBe(text.indexOf('"name": "b"'));
    expect(at(text, places.get('components[0].attributes["my key"][1].x'))).toBe('"x"');
    expect(at(text, places.get('components[0].attributes["my key"][0]'))).toBe("1");
    expect(at(text, places.get("debug"))).toBe('"debug"');
  });

  it("places a path that is not written at the nearest value that holds it", () => {
    expect(at(text, placeOf(places, "components[1].model"))).toBe("{");
    expect(at(text, placeOf(places, "network.bind_address"))).toBe("{");
    expect(placeOf(places, "components[1].model")!.from).toBe(text.indexOf('{ "name": "b"'));
  });

  it("reads paths back the way the validator writes them", () => {
    expect(segmentsOf('auth.handlers[0].config["my key"]')).toEqual(["auth", "handlers", 0, "config", "my key"]);
    expect(segmentsOf("components[12].attributes")).toEqual(["components", 12, "attributes"]);
    expect(segmentsOf("a..b")).toBeUndefined();
  });

  it("says where text stops being JSON", () => {
    expect(jsonPlaces(`{"a": [1, 2,, 3]}`).fault).toBe(12);
    expect(jsonPlaces(`{"a": 1} x`).fault).toBe(9);
    expect(jsonPlaces(`{"a": 1`).fault).toBe(7);
  });

  it("walks deep nesting without running out of stack", () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    expect(jsonPlaces(deep).fault).toBeUndefined();
  });
});

describe("a config's problems in the editor", () => {
  it("are the validator's own, each placed where its path is written", () => {
    const text = `{\n  "components": [\n    { "name": "s", "api": "rdk:component:sensor", "model": "fake", "frame": 7 }\n  ]\n}`;
    const problems = configProblems(text);
    const issues = parseMachineConfig(text).issues;
    expect(problems.map((p) => p.message)).toEqual(issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)));
    const frame = problems.find((p) => p.message.startsWith("components[0].frame:"))!;
    expect(text.slice(frame.from, frame.to)).toBe('"frame"');
  });

  it("place broken JSON where it breaks", () => {
    const text = `{\n  "components": [\n    oops\n  ]\n}`;
    const [problem] = configProblems(text);
    expect(problem!.from).toBe(text.indexOf("oops"));
    expect(problem!.message).toMatch(/^is not valid JSON: unexpected "o" at line 3, column 5$/);
  });

  it("are none for a good config", () => {
    expect(configProblems(`{"components": [{"name": "s", "api": "rdk:component:sensor", "model": "fake"}]}`)).toEqual([]);
  });
});

describe("two configs side by side", () => {
  it("pairs changed lines and keeps the rest aligned", () => {
    const rows = lineDiff("a\nb\nc\nd", "a\nB\nc\nd\ne");
    expect(rows.map((r) => r.kind)).toEqual(["same", "changed", "same", "same", "added"]);
    expect(rows[1]).toEqual({ kind: "changed", left: { line: 2, text: "b" }, right: { line: 2, text: "B" } });
    expect(rows[4]).toEqual({ kind: "added", right: { line: 5, text: "e" } });
  });

  it("finds lines removed from the middle", () => {
    const rows = lineDiff("a\nx\ny\nb", "a\nb");
    expect(rows.map((r) => r.kind)).toEqual(["same", "removed", "removed", "same"]);
    expect(rows[3]).toEqual({ kind: "same", left: { line: 4, text: "b" }, right: { line: 2, text: "b" } });
  });

  it("shows very large differences whole rather than stall", () => {
    const left = Array.from({ length: 3000 }, (_, i) => `l${i}`).join("\n");
    const right = Array.from({ length: 3000 }, (_, i) => `r${i}`).join("\n");
    const rows = lineDiff(left, right);
    expect(rows).toHaveLength(3000);
    expect(rows.every((r) => r.kind === "changed")).toBe(true);
  });
});
