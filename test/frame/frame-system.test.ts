// The frame system: frames placed in a tree from the world, listed parents first and siblings by
// name as Viam lists them, and poses carried between any two frames through the tree (property:
// there and back is the same pose); frames added over a machine's (a call's supplemental
// transforms) and what keeps a frame out, named.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  frameSystemOf,
  IDENTITY_POSE,
  normalize,
  placeFrames,
  rotationOf,
  type FrameConfig,
  type FrameEntry,
  type Pose,
  type Quaternion,
} from "../../core/frame/index.js";

const turn = (type: "ov_degrees" | "euler_angles", value: Record<string, number>): Quaternion => {
  const read = rotationOf(type, value);
  if ("problem" in read) throw new Error(read.problem);
  return read.rotation;
};
const at = (x: number, y: number, z: number, rotation = IDENTITY_POSE.rotation): Pose => ({ point: { x, y, z }, rotation });
const frame = (name: string, parent: string, pose: Pose = IDENTITY_POSE): FrameEntry => ({ name, parent, pose });
const quarterTurnAboutZ = turn("ov_degrees", { z: 1, th: 90 });

function expectPoint(pose: Pose, x: number, y: number, z: number): void {
  expect(pose.point.x).toBeCloseTo(x, 9);
  expect(pose.point.y).toBeCloseTo(y, 9);
  expect(pose.point.z).toBeCloseTo(z, 9);
}

// A base 100 mm along x, turned a quarter about z; an arm on it; a camera on the arm.
const rover = [
  frame("cam", "arm", at(10, 0, 0)),
  frame("base", "world", at(100, 0, 0, quarterTurnAboutZ)),
  frame("arm", "base", at(0, 200, 50)),
];

describe("a frame system", () => {
  it("lists parents before children, breadth first, siblings by name", () => {
    const { system, problems } = placeFrames(
      [frame("b2", "a"), frame("z", "world"), frame("b1", "a"), frame("a", "world"), frame("c", "b1")],
      (i) => `#${i}`,
    );
    expect(problems).toEqual([]);
    expect(system.frames.map((f) => `${f.parent}/${f.name}`)).toEqual(["world/a", "world/z", "a/b1", "a/b2", "b1/c"]);
  });

  it("carries a pose from any frame to any other through the tree", () => {
    const { system } = placeFrames(rover, (i) => `#${i}`);
    // The arm's origin: (0, 200, 50) turned a quarter about z is (-200, 0, 50), then 100 along x.
    expectPoint(system.transform(IDENTITY_POSE, "arm", "world"), -100, 0, 50);
    expectPoint(system.transform(IDENTITY_POSE, "cam", "world"), -100, 10, 50);
    expectPoint(system.transform(at(0, 0, 5), "cam", "arm"), 10, 0, 5);
    // The world's origin seen from the arm: back 100 along the base's -y, and 50 down.
    expectPoint(system.transform(IDENTITY_POSE, "world", "arm"), 0, -100, -50);
    expectPoint(system.transform(at(1, 2, 3), "base", "base"), 1, 2, 3);
  });

  it("brings a pose there and back to itself, whatever the frames' poses", () => {
    const mm = fc.double({ min: -1000, max: 1000, noNaN: true });
    const part = fc.double({ min: -1, max: 1, noNaN: true });
    const rotation = fc.tuple(part, part, part, part).map(([w, x, y, z]) => normalize({ w, x, y, z }) ?? IDENTITY_POSE.rotation);
    const pose = fc.record({ point: fc.record({ x: mm, y: mm, z: mm }), rotation });
    const name = fc.constantFrom("world", "base", "arm", "cam");
    fc.assert(
      fc.property(pose, pose, pose, pose, name, name, (base, arm, cam, p, from, to) => {
        const { system } = placeFrames([frame("base", "world", base), frame("arm", "base", arm), frame("cam", "arm", cam)], String);
        const back = system.transform(system.transform(p, from, to), to, from);
        expect(Math.hypot(back.point.x - p.point.x, back.point.y - p.point.y, back.point.z - p.point.z)).toBeLessThan(1e-6);
        const { rotation: r } = back;
        const q = p.rotation;
        expect(Math.min(Math.hypot(r.w - q.w, r.x - q.x, r.y - q.y, r.z - q.z), Math.hypot(r.w + q.w, r.x + q.x, r.y + q.y, r.z + q.z))).toBeLessThan(1e-9);
      }),
      { numRuns: 300 },
    );
  });

  it("takes frames added over it, placed in its frames or in each other", () => {
    const { system: machine } = placeFrames(rover, String);
    const { system, problems } = placeFrames([frame("tip", "marker", at(0, 0, 1)), frame("marker", "cam", at(0, 0, 2))], String, machine);
    expect(problems).toEqual([]);
    expect(system.frames.map((f) => f.name)).toEqual(["base", "arm", "cam", "marker", "tip"]);
    expectPoint(system.transform(IDENTITY_POSE, "tip", "world"), -100, 10, 53);
    expect(machine.has("tip")).toBe(false);
  });

  it("names what keeps a frame out, frame by frame", () => {
    const { system, problems } = placeFrames(
      [frame("a", "world"), frame("a", "world"), frame("world", "a"), frame("b", "nowhere"), frame("c", "b"), frame("d", "d")],
      (i) => `#${i}`,
    );
    expect(problems).toEqual([
      { index: 1, at: "name", message: 'names the frame "a", which #0 already names' },
      { index: 2, at: "name", message: '"world" is the root of the frame system: no frame may take that name' },
      { index: 3, at: "parent", message: 'unknown frame "nowhere"' },
      { index: 4, at: "parent", message: 'frame "b" is not connected to the world (see #3)' },
      { index: 5, at: "parent", message: "frames form a cycle: d -> d" },
    ]);
    expect(system.frames.map((f) => f.name)).toEqual(["a"]);
    const over = placeFrames([frame("cam", "world")], (i) => `added #${i}`, placeFrames(rover, String).system);
    expect(over.problems).toEqual([{ index: 0, at: "name", message: `names the frame "cam", which the machine's frame system already has` }]);
  });
});

describe("a frame system of many frames", () => {
  it("places a chain of thousands, and names what keeps thousands out, each walked once", () => {
    const count = 20_000;
    const chain = Array.from({ length: count }, (_, i) => frame(`f${i}`, i === 0 ? "world" : `f${i - 1}`, at(1, 0, 0)));
    const placed = placeFrames(chain, String);
    expect(placed.problems).toEqual([]);
    expectPoint(placed.system.transform(IDENTITY_POSE, `f${count - 1}`, "world"), count, 0, 0);

    const hanging = placeFrames(chain.map((f, i) => (i === 0 ? { ...f, parent: "nowhere" } : f)), (i) => `#${i}`);
    expect(hanging.problems).toHaveLength(count);
    expect(hanging.problems[0]!.message).toBe('unknown frame "nowhere"');
    expect(hanging.problems[count - 1]!.message).toBe(`frame "f${count - 2}" is not connected to the world (see #${count - 2})`);

    const ring = placeFrames(chain.map((f, i) => (i === 0 ? { ...f, parent: `f${count - 1}` } : f)), String);
    expect(ring.problems).toHaveLength(count);
    // A long cycle is named by where it starts (then parent after parent) and how long it is.
    expect(ring.problems[1]!.message).toBe(`frames form a cycle: f1 -> f0 -> f${count - 1} -> f${count - 2} -> ... (${count} frames) -> f1`);
  });
});

describe("the frame system of a configuration", () => {
  it("is made once per list of components, from each component's frame as written", () => {
    const configured = (parent: string, x: number): FrameConfig => ({ parent, translation: { x, y: 0, z: 0 }, orientation: { type: "euler_angles", value: { yaw: Math.PI / 2 } } });
    const components = [{ name: "base", frame: configured("world", 100) }, { name: "motor" }, { name: "arm", frame: configured("base", 10) }];
    const system = frameSystemOf(components);
    expect(frameSystemOf(components)).toBe(system);
    expect(system.frames.map((f) => f.name)).toEqual(["base", "arm"]);
    expectPoint(system.transform(IDENTITY_POSE, "arm", "world"), 100, 10, 0);
    expect(system.has("motor")).toBe(false);
  });
});
