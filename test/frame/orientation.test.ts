// Rotations and poses: every orientation form Viam writes turns into the one rotation form and
// back (property tests over random rotations), poses composed with their inverse are the
// identity, and the orientation vector follows Viam's conventions on known cases.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  axisAngleOf,
  composePoses,
  eulerAnglesOf,
  fromEulerAngles,
  fromOrientationVector,
  IDENTITY_POSE,
  invertPose,
  normalize,
  orientationVectorOf,
  poseFromWire,
  poseToWire,
  rotate,
  rotationOf,
  type Pose,
  type Quaternion,
} from "../../core/frame/index.js";

const TOLERANCE = 1e-7;
const DEGREE = Math.PI / 180;

/** Same rotation: q and -q are one rotation. */
function expectSameRotation(actual: Quaternion, expected: Quaternion, tolerance = TOLERANCE): void {
  const plus = Math.hypot(actual.w - expected.w, actual.x - expected.x, actual.y - expected.y, actual.z - expected.z);
  const minus = Math.hypot(actual.w + expected.w, actual.x + expected.x, actual.y + expected.y, actual.z + expected.z);
  expect(Math.min(plus, minus), `${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`).toBeLessThan(tolerance);
}

function expectSamePose(actual: Pose, expected: Pose, tolerance = 1e-6): void {
  expect(Math.hypot(actual.point.x - expected.point.x, actual.point.y - expected.point.y, actual.point.z - expected.point.z)).toBeLessThan(tolerance);
  expectSameRotation(actual.rotation, expected.rotation, tolerance);
}

function expectClose(actual: number[], expected: number[]): void {
  actual.forEach((value, i) => expect(value, `${i} of ${JSON.stringify(actual)}`).toBeCloseTo(expected[i]!, 6));
}

function rotationFrom(type: Parameters<typeof rotationOf>[0], value: Record<string, number>): Quaternion {
  const read = rotationOf(type, value);
  if ("problem" in read) throw new Error(read.problem);
  return read.rotation;
}

const part = fc.double({ min: -1, max: 1, noNaN: true });
const unitQuaternion = fc
  .tuple(part, part, part, part)
  .map(([w, x, y, z]) => normalize({ w, x, y, z }))
  .filter((q): q is Quaternion => q !== undefined && Math.hypot(q.w, q.x, q.y, q.z) > 0.5);
// Within 1e-4 of a pole an orientation vector's axis is taken as the pole (Viam's reading), so
// the forms are compared away from that band, and at the poles themselves.
const awayFromPoles = (q: Quaternion) => 1 - Math.abs(rotate(q, { x: 0, y: 0, z: 1 }).z) > 1e-3;
const angle = fc.double({ min: -Math.PI + 1e-6, max: Math.PI - 1e-6, noNaN: true });
const millimetres = fc.double({ min: -5000, max: 5000, noNaN: true });
const pose = fc.record({ point: fc.record({ x: millimetres, y: millimetres, z: millimetres }), rotation: unitQuaternion });

describe("every orientation form", () => {
  it("turns a rotation into itself again: quaternion, euler angles, axis angles", () => {
    fc.assert(
      fc.property(unitQuaternion, (q) => {
        expectSameRotation(rotationFrom("quaternion", { ...q }), q);
        expectSameRotation(rotationFrom("euler_angles", eulerAnglesOf(q)), q);
        expectSameRotation(rotationFrom("axis_angles", { ...axisAngleOf(q) }), q);
      }),
      { numRuns: 500 },
    );
  });

  it("turns a rotation into itself again as an orientation vector, in radians and degrees", () => {
    fc.assert(
      fc.property(unitQuaternion.filter(awayFromPoles), (q) => {
        const ov = orientationVectorOf(q);
        expectSameRotation(rotationFrom("ov_radians", { ...ov }), q);
        expectSameRotation(rotationFrom("ov_degrees", { ...ov, th: ov.th / DEGREE }), q);
      }),
      { numRuns: 500 },
    );
  });

  it("turns a rotation whose z axis is a pole into itself again as an orientation vector", () => {
    fc.assert(
      fc.property(angle, fc.boolean(), (th, south) => {
        const q = rotationFrom("ov_radians", { x: 0, y: 0, z: south ? -1 : 1, th });
        const ov = orientationVectorOf(q);
        expect(ov.z).toBeCloseTo(south ? -1 : 1, 9);
        expect(ov.th).toBeCloseTo(th, 6);
        expectSameRotation(rotationFrom("ov_radians", { ...ov }), q);
      }),
    );
  });

  it("reads back the values it was written with", () => {
    const axis = fc.tuple(part, part, part).filter(([x, y, z]) => Math.hypot(x, y, z) > 0.1);
    fc.assert(
      fc.property(axis, angle, ([x, y, z], th) => {
        const length = Math.hypot(x, y, z);
        const unit = { x: x / length, y: y / length, z: z / length };
        fc.pre(1 - Math.abs(unit.z) > 1e-3);
        const ov = orientationVectorOf(fromOrientationVector({ ...unit, th }));
        expectClose([ov.x, ov.y, ov.z, ov.th], [unit.x, unit.y, unit.z, th]);
        // No turn has no axis; a turn of pi about an axis is one of pi about the opposite one.
        fc.pre(Math.abs(th) > 1e-3);
        const aa = axisAngleOf(rotationFrom("axis_angles", { x, y, z, th: Math.abs(th) }));
        expectClose([aa.x, aa.y, aa.z, aa.th], [unit.x, unit.y, unit.z, Math.abs(th)]);
      }),
      { numRuns: 300 },
    );
    const pitch = fc.double({ min: -Math.PI / 2 + 1e-3, max: Math.PI / 2 - 1e-3, noNaN: true });
    fc.assert(
      fc.property(angle, pitch, angle, (roll, p, yaw) => {
        const back = eulerAnglesOf(fromEulerAngles(roll, p, yaw));
        expect(back.roll).toBeCloseTo(roll, 6);
        expect(back.pitch).toBeCloseTo(p, 6);
        expect(back.yaw).toBeCloseTo(yaw, 6);
      }),
      { numRuns: 300 },
    );
  });

  it("follows Viam's orientation vector: 45 degrees about x points z along (0, -1/√2, 1/√2), turned 90 degrees", () => {
    const q = rotationFrom("axis_angles", { x: 1, y: 0, z: 0, th: Math.PI / 4 });
    const ov = orientationVectorOf(q);
    expectClose([ov.x, ov.y, ov.z, ov.th], [0, -Math.SQRT1_2, Math.SQRT1_2, Math.PI / 2]);
    expectSameRotation(rotationFrom("euler_angles", { roll: Math.PI / 4 }), q);
    expectSameRotation(rotationFrom("ov_degrees", { x: 0, y: -1, z: 1, th: 90 }), q);
    expectSameRotation(rotationFrom("quaternion", { w: Math.cos(Math.PI / 8), x: Math.sin(Math.PI / 8) }), q);
  });

  it("turns euler angles about z, then y, then x (yaw, pitch, roll)", () => {
    const q = rotationFrom("euler_angles", { roll: Math.PI / 2, yaw: Math.PI / 2 });
    // The roll acts first, in the body: z goes to -y, which the yaw then turns to x.
    const z = rotate(q, { x: 0, y: 0, z: 1 });
    expectClose([z.x, z.y, z.z], [1, 0, 0]);
  });
});

describe("poses", () => {
  it("composed with their inverse, either way round, are the identity", () => {
    fc.assert(
      fc.property(pose, (p) => {
        expectSamePose(composePoses(p, invertPose(p)), IDENTITY_POSE);
        expectSamePose(composePoses(invertPose(p), p), IDENTITY_POSE);
      }),
      { numRuns: 500 },
    );
  });

  it("compose in any grouping (a pose chain has one meaning)", () => {
    fc.assert(
      fc.property(pose, pose, pose, (a, b, c) => {
        expectSamePose(composePoses(composePoses(a, b), c), composePoses(a, composePoses(b, c)), 1e-5);
      }),
      { numRuns: 300 },
    );
  });

  it("go to the wire (orientation vector in degrees) and back", () => {
    fc.assert(
      fc.property(pose.filter((p) => awayFromPoles(p.rotation)), (p) => {
        expectSamePose(poseFromWire(poseToWire(p)), p);
      }),
      { numRuns: 500 },
    );
  });

  it("read a wire pose with no orientation as pointing along z", () => {
    const p = poseFromWire({ x: 1, y: 2, z: 3, oX: 0, oY: 0, oZ: 0, theta: 90 });
    expectSamePose(p, { point: { x: 1, y: 2, z: 3 }, rotation: rotationFrom("ov_degrees", { z: 1, th: 90 }) });
    expect(poseToWire(IDENTITY_POSE)).toEqual({ x: 0, y: 0, z: 0, oX: 0, oY: 0, oZ: 1, theta: 0 });
  });
});
