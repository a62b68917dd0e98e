// Configuration diffs as the log shows them: lists of named entries (components, services,
// modules, remotes, ...) are compared entry by entry by name, so removing, adding or editing one
// entry is told about that entry alone, wherever it sits in the list.
import { describe, expect, it } from "vitest";
import { formatConfigDiff } from "../../core/index.js";

const sensor = (name: string, attributes: Record<string, unknown> = {}) => ({ name, api: "rdk:component:sensor", model: "fake", attributes, depends_on: [] });
const many = (names: string[]) => ({ components: names.map((n) => sensor(n)) });

describe("a configuration diff of named entries", () => {
  it("tells one removal from the middle of a list in one line", () => {
    const before = many(["a", "b", "c", "added1", "added2", "d", "e"]);
    const after = many(["a", "b", "c", "added2", "d", "e"]);
    expect(formatConfigDiff(before, after)).toEqual([
      'components["added1"]: {"name":"added1","api":"rdk:component:sensor","model":"fake","attributes":{},"depends_on":[]} -> (absent)',
    ]);
  });

  it("tells one added entry in one line, wherever it is inserted", () => {
    const before = many(["a", "b", "c"]);
    const after = many(["a", "new", "b", "c"]);
    expect(formatConfigDiff(before, after)).toEqual([
      'components["new"]: (absent) -> {"name":"new","api":"rdk:component:sensor","model":"fake","attributes":{},"depends_on":[]}',
    ]);
  });

  it("shows only the changed fields of a changed entry, under its name, even when it moved", () => {
    const before = { components: [sensor("a"), sensor("temp", { readings: { celsius: 20 }, unit: "C" })] };
    const after = { components: [sensor("temp", { readings: { celsius: 25 }, unit: "C" }), sensor("a")] };
    expect(formatConfigDiff(before, after)).toEqual(['components["temp"].attributes.readings.celsius: 20 -> 25']);
  });

  it("diffs services and modules by name too, and leaves lists of unnamed values positional", () => {
    const before = {
      services: [{ name: "nav", api: "rdk:service:generic", model: "fake" }, { name: "data", api: "rdk:service:generic", model: "fake" }],
      modules: [{ type: "local", name: "counter", executable_path: "/m/counter", log_level: "" }, { type: "local", name: "probe", executable_path: "/m/probe", log_level: "" }],
      log: [{ pattern: "a.*", level: "debug" }, { pattern: "b.*", level: "info" }],
    };
    const after = {
      services: [{ name: "data", api: "rdk:service:generic", model: "fake" }],
      modules: [{ type: "local", name: "probe", executable_path: "/m/probe", log_level: "debug" }, { type: "local", name: "counter", executable_path: "/m/counter", log_level: "" }],
      log: [{ pattern: "b.*", level: "info" }],
    };
    expect(formatConfigDiff(before, after)).toEqual([
      'services["nav"]: {"name":"nav","api":"rdk:service:generic","model":"fake"} -> (absent)',
      'modules["probe"].log_level: "" -> "debug"',
      'log[0].pattern: "a.*" -> "b.*"',
      'log[0].level: "debug" -> "info"',
      'log[1]: {"pattern":"b.*","level":"info"} -> (absent)',
    ]);
  });

  it("names entries by API and name when one name is used under two APIs", () => {
    const motor = (name: string, max_rpm: number) => ({ name, api: "rdk:component:motor", model: "fake", attributes: { max_rpm } });
    const before = { components: [sensor("left"), motor("left", 100)] };
    const after = { components: [motor("left", 120), sensor("left")] };
    expect(formatConfigDiff(before, after)).toEqual(['components["rdk:component:motor/left"].attributes.max_rpm: 100 -> 120']);
  });

  it("keeps the secrets of named entries masked", () => {
    const remote = (name: string, secret: string) => ({ name, address: "10.0.0.2:8080", secret });
    const before = { remotes: [remote("arm", "first-secret"), remote("cam", "cam-secret")] };
    const after = { remotes: [remote("cam", "cam-secret-2"), remote("base", "base-secret")] };
    const lines = formatConfigDiff(before, after);
    expect(lines).toEqual([
      'remotes["arm"]: {"name":"arm","address":"10.0.0.2:8080","secret":"<redacted>"} -> (absent)',
      'remotes["cam"].secret: <redacted> -> <redacted>',
      'remotes["base"]: (absent) -> {"name":"base","address":"10.0.0.2:8080","secret":"<redacted>"}',
    ]);
    expect(formatConfigDiff(before, after, { reveal: true })).toContain('remotes["cam"].secret: "cam-secret" -> "cam-secret-2"');
  });
});

describe("a configuration diff of a huge edit", () => {
  it("cuts a value longer than 1,000 characters, saying how long it is", () => {
    const before = { components: [sensor("a", { text: "short" })] };
    const after = { components: [sensor("a", { text: "x".repeat(5_000) })] };
    const [line] = formatConfigDiff(before, after);
    expect(line).toBe(`components["a"].attributes.text: "short" -> "${"x".repeat(999)}... (5002 characters)`);
  });

  it("shows 100 lines and counts the rest in one more", () => {
    const names = Array.from({ length: 250 }, (_, i) => `s${i}`);
    const lines = formatConfigDiff(many([]), many(names));
    expect(lines).toHaveLength(101);
    expect(lines[99]).toMatch(/^components\["s99"\]: \(absent\) -> /);
    expect(lines[100]).toBe("... and 150 more change(s)");
  });
});
