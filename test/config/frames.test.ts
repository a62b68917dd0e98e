// Components' `frame`, as configurations written for viam-server carry it: every orientation form
// and geometry read, every problem named with its place (an unknown parent, a cycle and its
// members, an orientation type or value that names no rotation, a frame named twice), and a
// component whose frame cannot be used left out as an entry with any other bad value is.
import { describe, expect, it } from "vitest";
import { error, parse, warning } from "./helpers.js";

type Entry = Record<string, unknown>;

const component = (name: string, frame?: unknown, api = "rdk:component:generic"): Entry =>
  frame === undefined ? { name, api, model: "fake" } : { name, api, model: "fake", frame };

const names = (config: { components: Array<{ name: string }> }) => config.components.map((c) => c.name);

describe("a frame tree", () => {
  it("is read with its defaults filled in and kept as written", () => {
    const { config, issues } = parse({
      components: [
        component("cam", { parent: "arm", translation: { z: 30 }, orientation: { type: "euler_angles", value: { pitch: 1.5 } } }),
        component("base", { parent: "world" }),
        component("arm", { parent: "base", translation: { x: 100, y: 0, z: 50 }, orientation: { type: "ov_degrees", value: { x: 0, y: 0, z: 1, th: 90 } } }),
      ],
    });
    expect(issues).toEqual([]);
    expect(names(config)).toEqual(["cam", "base", "arm"]);
    expect(config.components[1]!.frame).toEqual({ parent: "world", translation: { x: 0, y: 0, z: 0 } });
    expect(config.components[0]!.frame).toEqual({
      parent: "arm",
      translation: { x: 0, y: 0, z: 30 },
      orientation: { type: "euler_angles", value: { pitch: 1.5 } },
    });
  });

  it("takes every orientation form Viam writes", () => {
    const forms = [
      { type: "ov_degrees", value: { x: 0, y: 1, z: 0, th: 45 } },
      { type: "ov_radians", value: { x: 1, y: 1, z: 0, th: 0.5 } },
      { type: "euler_angles", value: { roll: 0.1, pitch: 0.2, yaw: 0.3 } },
      { type: "axis_angles", value: { x: 0, y: 0, z: 2, th: 3.14 } },
      { type: "quaternion", value: { w: 2, x: 0, y: 0, z: 2 } },
    ];
    const { config, issues } = parse({ components: forms.map((orientation, i) => component(`c${i}`, { parent: "world", orientation })) });
    expect(issues).toEqual([]);
    expect(config.components).toHaveLength(5);
  });

  it("takes each geometry, its label and its own pose", () => {
    const { config, issues } = parse({
      components: [
        component("a", { parent: "world", geometry: { type: "box", x: 10, y: 20, z: 0 } }),
        component("b", { parent: "world", geometry: { type: "sphere", r: 5, label: "ball" } }),
        component("c", { parent: "world", geometry: { type: "capsule", r: 5, l: 30, translation: { z: 15 }, orientation: { type: "ov_degrees", value: { x: 1, y: 0, z: 0, th: 0 } } } }),
        component("d", { parent: "world", geometry: { r: 5 } }),
      ],
    });
    expect(issues).toEqual([]);
    expect(names(config)).toEqual(["a", "b", "c", "d"]);
    expect(config.components[1]!.frame!.geometry).toEqual({ type: "sphere", r: 5, label: "ball", translation: { x: 0, y: 0, z: 0 } });
  });

  it("may list a child before its parent, in any order", () => {
    const { issues } = parse({ components: [component("c", { parent: "b" }), component("b", { parent: "a" }), component("a", { parent: "world" })] });
    expect(issues).toEqual([]);
  });
});

describe("a frame that cannot be placed", () => {
  it("names an unknown parent, and leaves that component out", () => {
    const { config, issues } = parse({ components: [component("base", { parent: "world" }), component("arm", { parent: "base" }), component("cam", { parent: "arm9" })] });
    expect(issues).toEqual([error("components[2].frame.parent", 'unknown frame "arm9"')]);
    expect(names(config)).toEqual(["base", "arm"]);
  });

  it("names a cycle with its members, at each of them", () => {
    const { config, issues } = parse({
      components: [component("a", { parent: "b" }), component("b", { parent: "c" }), component("c", { parent: "a" }), component("d", { parent: "world" })],
    });
    expect(issues).toEqual([
      error("components[0].frame.parent", "frames form a cycle: a -> b -> c -> a"),
      error("components[1].frame.parent", "frames form a cycle: b -> c -> a -> b"),
      error("components[2].frame.parent", "frames form a cycle: c -> a -> b -> c"),
    ]);
    expect(names(config)).toEqual(["d"]);
  });

  it("names a frame that is its own parent as a cycle", () => {
    const { issues } = parse({ components: [component("a", { parent: "a" })] });
    expect(issues).toEqual([error("components[0].frame.parent", "frames form a cycle: a -> a")]);
  });

  it("names, for a frame hanging from one left out, the one to look at", () => {
    const { config, issues } = parse({
      components: [component("a", { parent: "nowhere" }), component("b", { parent: "a" }), component("c", { parent: "b" }), component("d", { parent: "e" }), component("e", { parent: "d" })],
    });
    expect(issues).toEqual([
      error("components[0].frame.parent", 'unknown frame "nowhere"'),
      error("components[1].frame.parent", 'frame "a" is not connected to the world (see components[0])'),
      error("components[2].frame.parent", 'frame "b" is not connected to the world (see components[1])'),
      error("components[3].frame.parent", "frames form a cycle: d -> e -> d"),
      error("components[4].frame.parent", "frames form a cycle: e -> d -> e"),
    ]);
    expect(config.components).toEqual([]);
  });

  it("refuses a frame named twice (one name under two APIs), keeping the first", () => {
    const { config, issues } = parse({
      components: [component("x", { parent: "world" }, "rdk:component:motor"), component("x", { parent: "world" }, "rdk:component:sensor"), component("y", { parent: "x" })],
    });
    expect(issues).toEqual([error("components[1].frame", 'names the frame "x", which components[0] already names')]);
    expect(config.components.map((c) => c.api)).toEqual(["rdk:component:motor", "rdk:component:generic"]);
  });

  it("refuses a component named world a frame", () => {
    const { config, issues } = parse({ components: [component("world", { parent: "world" }), component("world", undefined, "rdk:component:motor")] });
    expect(issues).toEqual([error("components[0].frame", '"world" is the root of the frame system: no frame may take that name')]);
    expect(config.components.map((c) => c.api)).toEqual(["rdk:component:motor"]);
  });

  it("leaves a parent that names a component without a frame unknown", () => {
    const { issues } = parse({ components: [component("base"), component("arm", { parent: "base" })] });
    expect(issues).toEqual([error("components[1].frame.parent", 'unknown frame "base"')]);
  });
});

describe("a frame's values", () => {
  const withFrame = (frame: unknown) => parse({ components: [component("a", frame), component("keep", { parent: "world" })] });

  it.each([
    [{}, "components[0].frame.parent", 'is required: a frame\'s name: "world" or another component\'s name'],
    [{ parent: "the arm" }, "components[0].frame.parent", 'must be a frame\'s name: "world" or another component\'s name (found "the arm")'],
    [{ parent: "world", translation: { x: "1" } }, "components[0].frame.translation.x", 'must be a number (found "1")'],
    [{ parent: "world", translation: [1, 2, 3] }, "components[0].frame.translation", "must be an object (found an array)"],
    [{ parent: "world", orientation: { type: "ov_degree", value: {} } }, "components[0].frame.orientation.type",
      'must be one of "ov_degrees", "ov_radians", "euler_angles", "axis_angles", "quaternion" (found "ov_degree")'],
    [{ parent: "world", orientation: { value: { th: 1 } } }, "components[0].frame.orientation.type",
      'is required: one of "ov_degrees", "ov_radians", "euler_angles", "axis_angles", "quaternion"'],
    [{ parent: "world", orientation: { type: "quaternion", value: { w: 0, x: 0, y: 0, z: 0 } } }, "components[0].frame.orientation.value", "is a quaternion of zero length"],
    [{ parent: "world", orientation: { type: "quaternion" } }, "components[0].frame.orientation.value", "is a quaternion of zero length"],
    [{ parent: "world", orientation: { type: "ov_degrees", value: { th: 90 } } }, "components[0].frame.orientation.value", "has an axis (x, y, z) of zero length"],
    [{ parent: "world", orientation: { type: "axis_angles", value: { x: 0, y: 0, z: 0, th: 1 } } }, "components[0].frame.orientation.value", "has an axis (x, y, z) of zero length"],
    [{ parent: "world", orientation: { type: "euler_angles", value: { roll: "1" } } }, "components[0].frame.orientation.value.roll", 'must be a number (found "1")'],
    [{ parent: "world", geometry: { type: "cylinder", r: 1, l: 2 } }, "components[0].frame.geometry.type", 'must be one of "box", "sphere", "capsule" (found "cylinder")'],
    [{ parent: "world", geometry: { type: "sphere", r: 0 } }, "components[0].frame.geometry.r", "must be more than 0 for a sphere (found 0)"],
    [{ parent: "world", geometry: { type: "box", x: 1, y: -2, z: 1 } }, "components[0].frame.geometry.y", "must not be negative for a box (found -2)"],
    [{ parent: "world", geometry: { type: "capsule", r: 10, l: 15 } }, "components[0].frame.geometry.l", "must be at least twice r (20) for a capsule (found 15)"],
    [{ parent: "world", geometry: { type: "capsule", l: 15 } }, "components[0].frame.geometry.r", "must be more than 0 for a capsule (found 0)"],
    [{ parent: "world", geometry: { label: "empty" } }, "components[0].frame.geometry.type",
      'is required when no size is given: "box" {x, y, z}, "sphere" {r} or "capsule" {r, l}'],
    [{ parent: "world", geometry: { type: "box", x: 1, orientation: { type: "quaternion", value: {} } } }, "components[0].frame.geometry.orientation.value", "is a quaternion of zero length"],
  ])("%j is an error at its place, and the component is left out", (frame, path, message) => {
    const { config, issues } = withFrame(frame);
    expect(issues).toEqual([error(path, message)]);
    expect(names(config)).toEqual(["keep"]);
  });

  it("ignores, with a warning, a key the form written does not have", () => {
    const { config, issues } = withFrame({
      parent: "world",
      orientation: { type: "euler_angles", value: { roll: 1, x: 2 } },
      geometry: { type: "sphere", r: 4, x: 3 },
      id: "other",
    });
    expect(issues).toEqual([
      warning("components[0].frame.orientation.value.x", 'unknown key "x" for "euler_angles" (ignored; its keys are "roll", "pitch", "yaw")'),
      warning("components[0].frame.geometry.x", 'unknown key "x" for a sphere (ignored; its keys are "r")'),
      warning("components[0].frame.id", 'unknown key "id" (ignored)'),
    ]);
    expect(names(config)).toEqual(["a", "keep"]);
  });

  it("is ignored on a service, with a warning", () => {
    const { config, issues } = parse({ services: [{ name: "nav", api: "rdk:service:generic", model: "fake", frame: { parent: "world" } }] });
    expect(issues).toEqual([warning("services[0].frame", "is ignored: only components have a place in the frame system")]);
    expect(config.services[0]).not.toHaveProperty("frame");
  });
});
