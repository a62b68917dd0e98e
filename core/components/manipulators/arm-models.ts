// The arms a fake arm can stand in for, by the names Viam's `arm-model` attribute uses, and the
// kinematic chain the fake computes with for each.
//
// "fake" is Viam's own fake chain: one joint turning about z, 500 mm out along x and 300 mm up.
// Every other name stands for a real arm with that arm's number of joints, but the fake does
// not carry the real arm's geometry: it moves svc's simple chain of that many joints, which is
// easy to compute by hand:
//
//   - a column 300 mm tall; joint 1 at its top turns about z;
//   - joints 2..n turn about y (even-numbered joints) and about x (odd-numbered ones), each
//     followed by a link 100 mm long along x;
//   - the tool's z axis points along the last link.
//
// With every joint at 0 the arm reaches straight out along x: its end is at
// (100 * (n - 1), 0, 300), pointing along x. Every joint turns -360 to 360 degrees.
import type { ChainPart, KinematicChain } from "./kinematic-chain.js";
import type { Vec3 } from "./rotation.js";

const Z: Vec3 = [0, 0, 1];
const Y: Vec3 = [0, 1, 0];
const X: Vec3 = [1, 0, 0];
const LIMIT = 360;
export const COLUMN_MM = 300;
export const LINK_MM = 100;

/** The joint count of each arm Viam's fake arm can stand in for, by its name in lower case (Viam writes "xArm6"). */
const jointCounts: ReadonlyMap<string, number> = new Map([
  ["ur5e", 6],
  ["ur7e", 6],
  ["ur20", 6],
  ["xarm6", 6],
  ["xarm7", 7],
  ["lite6", 6],
  ["dofbot", 5],
]);

export const DEFAULT_ARM_MODEL = "fake";

/** Every name `arm-model` accepts, "fake" first. */
export const armModelNames: readonly string[] = [DEFAULT_ARM_MODEL, ...jointCounts.keys()];

function viamFakeChain(): KinematicChain {
  return {
    name: "fake_arm",
    parts: [
      { kind: "link", id: "base_link", translation: [500, 0, 300] },
      { kind: "joint", id: "shoulder_pan_joint", type: "revolute", axis: Z, min: -LIMIT, max: LIMIT },
    ],
  };
}

/** svc's simple chain of `joints` revolute joints (at least 2). */
export function simpleChain(name: string, joints: number): KinematicChain {
  const parts: ChainPart[] = [
    { kind: "link", id: "column", translation: [0, 0, COLUMN_MM] },
    { kind: "joint", id: "joint_1", type: "revolute", axis: Z, min: -LIMIT, max: LIMIT },
  ];
  for (let k = 2; k <= joints; k++) {
    parts.push({ kind: "joint", id: `joint_${k}`, type: "revolute", axis: k % 2 === 0 ? Y : X, min: -LIMIT, max: LIMIT });
    // The tool's frame: turned so its z axis points along the last link (+x with the arm straight).
    const tool = k === joints ? { orientation: { oX: 1, oY: 0, oZ: 0, theta: 0 } } : {};
    parts.push({ kind: "link", id: `link_${k}`, translation: [LINK_MM, 0, 0], ...tool });
  }
  return { name, parts };
}

/** The chain for an `arm-model` name, or undefined for a name no fake arm stands in for. */
export function chainOfArmModel(armModel: string): KinematicChain | undefined {
  if (armModel === DEFAULT_ARM_MODEL) return viamFakeChain();
  const joints = jointCounts.get(armModel.toLowerCase());
  return joints === undefined ? undefined : simpleChain(armModel, joints);
}
