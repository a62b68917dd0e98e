// The kinematics the fake arm and gantry compute with: orientation vectors read as Viam's spatial
// math reads them, the documented chains' end poses worked out by hand, inverse kinematics that
// finds every pose the chain can reach (property-tested over random joint values, bounded and
// seeded) and says how far off a pose it cannot reach is, SVA files that describe the chain, and
// the timed motion of the joints on a manual clock.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  armModelNames,
  chainOfArmModel,
  createJointMotion,
  forwardKinematics,
  inverseKinematics,
  jointsOf,
  orientationOfRotation,
  poseOfTransform,
  rotationOfOrientation,
  svaDocument,
  transformOfPose,
  type Pose,
  type Transform,
} from "../../core/components/manipulators/index.js";
import { createManualClock } from "../../core/index.js";

const close = (actual: Pose, expected: Pose, digits = 6) => {
  for (const key of ["x", "y", "z", "oX", "oY", "oZ", "theta"] as const) expect(actual[key], key).toBeCloseTo(expected[key], digits);
};

// Orientation vectors jump at the poles and at theta = +-180; rotations do not.
const sameTransform = (actual: Transform, expected: Transform, digits: number) => {
  actual.translation.forEach((v, i) => expect(v, `translation[${i}]`).toBeCloseTo(expected.translation[i]!, digits));
  actual.rotation.forEach((v, i) => expect(v, `rotation[${i}]`).toBeCloseTo(expected.rotation[i]!, digits + 3));
};

const endOf = (model: string, values: number[]) => poseOfTransform(forwardKinematics(chainOfArmModel(model)!, values));

describe("orientation vectors", () => {
  it("read straight up as a turn about z by theta, and along x as the z axis tipped onto x", () => {
    const up = rotationOfOrientation(0, 0, 1, 90);
    // Rz(90): x goes to y.
    expect([up[0], up[3], up[6]].map((v) => Math.round(v * 1e9) / 1e9)).toEqual([0, 1, 0]);
    const alongX = rotationOfOrientation(1, 0, 0, 0);
    // Ry(90): z goes to x, x goes to -z.
    expect([alongX[2], alongX[5], alongX[8]].map((v) => Math.round(v * 1e9) / 1e9)).toEqual([1, 0, 0]);
    expect([alongX[0], alongX[3], alongX[6]].map((v) => Math.round(v * 1e9) / 1e9)).toEqual([0, 0, -1]);
  });

  // Within 1e-4 of straight up or down Viam takes the vector as on the pole (lon 0), so only
  // vectors clear of that come back unchanged; on the poles theta alone says the turn.
  it("come back as they went in, off the poles and on them", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -179, max: 179, noNaN: true }),
        (x, y, z, theta) => {
          const length = Math.hypot(x, y, z);
          fc.pre(length > 0.1 && 1 - Math.abs(z / length) > 1e-3);
          const back = orientationOfRotation(rotationOfOrientation(x, y, z, theta));
          expect(back.oX).toBeCloseTo(x / length, 6);
          expect(back.oY).toBeCloseTo(y / length, 6);
          expect(back.oZ).toBeCloseTo(z / length, 6);
          // Near the poles only the whole rotation is defined; compare rotations there.
          const again = rotationOfOrientation(back.oX, back.oY, back.oZ, back.theta);
          const first = rotationOfOrientation(x, y, z, theta);
          for (let i = 0; i < 9; i++) expect(again[i]).toBeCloseTo(first[i]!, 6);
        },
      ),
      { numRuns: 300, seed: 4242 },
    );
    expect(orientationOfRotation(rotationOfOrientation(0, 0, -1, 30)).theta).toBeCloseTo(30, 9);
    expect(orientationOfRotation(rotationOfOrientation(0, 0, 1, -120)).theta).toBeCloseTo(-120, 9);
  });
});

describe("the fake arm's chains", () => {
  it("know Viam's arm-model names, with each arm's number of joints", () => {
    expect(armModelNames).toEqual(["fake", "ur5e", "ur7e", "ur20", "xarm6", "xarm7", "lite6", "dofbot"]);
    expect(armModelNames.map((m) => jointsOf(chainOfArmModel(m)!).length)).toEqual([1, 6, 6, 6, 6, 7, 6, 5]);
    expect(chainOfArmModel("toString")).toBeUndefined();
  });

  it('put "fake"\'s end 500 mm out and 300 mm up, turned about z by its one joint, as Viam\'s fake chain does', () => {
    close(endOf("fake", [0]), { x: 500, y: 0, z: 300, oX: 0, oY: 0, oZ: 1, theta: 0 });
    close(endOf("fake", [45]), { x: 500, y: 0, z: 300, oX: 0, oY: 0, oZ: 1, theta: 45 });
  });

  it("put the simple chain's end where the documentation says", () => {
    // Straight out along x: 5 links of 100 mm on a 300 mm column, the tool pointing along x.
    close(endOf("ur5e", [0, 0, 0, 0, 0, 0]), { x: 500, y: 0, z: 300, oX: 1, oY: 0, oZ: 0, theta: 0 });
    // Joint 1 at 90 turns the whole arm to point along y.
    close(endOf("ur5e", [90, 0, 0, 0, 0, 0]), { x: 0, y: 500, z: 300, oX: 0, oY: 1, oZ: 0, theta: 0 });
    // Joint 2 (about y) at -90 raises the arm straight up, the tool pointing up.
    const up = endOf("ur5e", [0, -90, 0, 0, 0, 0]);
    expect([up.x, up.y, up.z, up.oX, up.oY, up.oZ].map((v) => Math.round(v * 1e6) / 1e6)).toEqual([0, 0, 800, 0, 0, 1]);
    // The dofbot's four links reach 400 mm; the xarm7's six reach 600 mm.
    expect(endOf("dofbot", [0, 0, 0, 0, 0]).x).toBeCloseTo(400, 9);
    expect(endOf("xarm7", [0, 0, 0, 0, 0, 0, 0]).x).toBeCloseTo(600, 9);
  });
});

describe("inverse kinematics", () => {
  for (const model of ["ur5e", "xarm7", "dofbot", "fake"]) {
    it(`finds joint values that reach every pose ${model}'s chain reaches`, () => {
      const chain = chainOfArmModel(model)!;
      const joints = jointsOf(chain).length;
      fc.assert(
        fc.property(fc.array(fc.double({ min: -170, max: 170, noNaN: true }), { minLength: joints, maxLength: joints }), (values) => {
          const target = forwardKinematics(chain, values);
          const solution = inverseKinematics(chain, target, new Array<number>(joints).fill(0));
          expect(solution.reached).toBe(true);
          sameTransform(forwardKinematics(chain, solution.values), target, 3);
        }),
        { numRuns: 40, seed: 17 },
      );
    });
  }

  it("stays where it is for the pose it is at", () => {
    const chain = chainOfArmModel("ur5e")!;
    const values = [10, -20, 30, -40, 50, -60];
    const solution = inverseKinematics(chain, forwardKinematics(chain, values), values);
    solution.values.forEach((v, i) => expect(v).toBeCloseTo(values[i]!, 6));
  });

  it("says how far off a pose out of reach is", () => {
    const chain = chainOfArmModel("ur5e")!;
    const far = transformOfPose({ x: 2000, y: 0, z: 300, oX: 1, oY: 0, oZ: 0, theta: 0 });
    const solution = inverseKinematics(chain, far, [0, 0, 0, 0, 0, 0]);
    expect(solution.reached).toBe(false);
    expect(solution.positionError).toBeGreaterThan(1400);
    // The one-joint fake reaches no other place than its own.
    const elsewhere = inverseKinematics(chainOfArmModel("fake")!, transformOfPose({ x: 0, y: 0, z: 0, oX: 0, oY: 0, oZ: 1, theta: 0 }), [0]);
    expect(elsewhere.reached).toBe(false);
    expect(elsewhere.positionError).toBeCloseTo(Math.hypot(500, 300), 6);
  });
});

describe("SVA files", () => {
  it("describe the chain, each part naming the one before it", () => {
    expect(svaDocument(chainOfArmModel("fake")!)).toEqual({
      name: "fake_arm",
      kinematic_param_type: "SVA",
      links: [{ id: "base_link", parent: "world", translation: { x: 500, y: 0, z: 300 } }],
      joints: [{ id: "shoulder_pan_joint", type: "revolute", parent: "base_link", axis: { x: 0, y: 0, z: 1 }, min: -360, max: 360 }],
    });
    const ur5e = svaDocument(chainOfArmModel("ur5e")!) as { links: Array<{ id: string; parent: string }>; joints: Array<{ id: string; parent: string }> };
    expect(ur5e.joints.map((j) => `${j.parent}>${j.id}`)).toEqual([
      "column>joint_1",
      "joint_1>joint_2",
      "link_2>joint_3",
      "link_3>joint_4",
      "link_4>joint_5",
      "link_5>joint_6",
    ]);
    expect(ur5e.links.at(-1)).toMatchObject({ id: "link_6", parent: "joint_6", orientation: { type: "ov_degrees", value: { x: 1, y: 0, z: 0, th: 0 } } });
  });
});

describe("joint motion", () => {
  it("lands at once without a duration, and otherwise travels in a straight line until it arrives", async () => {
    const clock = createManualClock(0);
    const motion = createJointMotion(clock, [0, 0]);
    expect(await motion.moveTo([10, -10], [0, 0])).toBe(true);
    expect(motion.values()).toEqual([10, -10]);

    const arrived = motion.moveTo([20, 10], [1000, 2000]);
    expect(motion.isMoving()).toBe(true);
    clock.advance(500);
    expect(motion.values()).toEqual([15, -5]);
    clock.advance(1500);
    expect(await arrived).toBe(true);
    expect(motion.values()).toEqual([20, 10]);
    expect(motion.isMoving()).toBe(false);
  });

  it("ends a move where it is when stopped or sent elsewhere, answering its caller", async () => {
    const clock = createManualClock(0);
    const motion = createJointMotion(clock, [0]);
    const first = motion.moveTo([100], [1000]);
    clock.advance(250);
    const second = motion.moveTo([0], [1000]);
    expect(await first).toBe(false);
    clock.advance(100);
    motion.stop();
    expect(await second).toBe(false);
    expect(motion.values()[0]).toBeCloseTo(22.5, 9);
    expect(motion.isMoving()).toBe(false);
  });
});
