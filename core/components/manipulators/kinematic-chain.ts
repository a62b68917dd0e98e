// A kinematic chain: fixed links and moving joints, from the base outward, as Viam's SVA
// kinematics files describe one. Forward kinematics walks it: each link places the next frame
// in the one before (a translation and a fixed orientation), each joint turns the frame about its
// axis (revolute, degrees) or slides it along its axis (prismatic, millimetres).
import { compose, ORIGIN, rotationOfOrientation, type Transform } from "./pose.js";
import { aboutAxis, apply, cross, IDENTITY, scale, subtract, type Vec3 } from "./rotation.js";

export interface ChainLink {
  kind: "link";
  id: string;
  translation: Vec3;
  /** The orientation vector of the frame it places, theta in degrees; absent: unturned. */
  orientation?: { oX: number; oY: number; oZ: number; theta: number };
}

export interface ChainJoint {
  kind: "joint";
  id: string;
  type: "revolute" | "prismatic";
  /** A unit vector in the frame of the part before it. */
  axis: Vec3;
  /** Degrees for a revolute joint, millimetres for a prismatic one. */
  min: number;
  max: number;
}

export type ChainPart = ChainLink | ChainJoint;

export interface KinematicChain {
  /** The name its kinematics file carries. */
  readonly name: string;
  readonly parts: readonly ChainPart[];
}

const RADIANS = Math.PI / 180;

export function jointsOf(chain: KinematicChain): ChainJoint[] {
  return chain.parts.filter((p): p is ChainJoint => p.kind === "joint");
}

function linkTransform(link: ChainLink): Transform {
  const o = link.orientation;
  return { rotation: o ? rotationOfOrientation(o.oX, o.oY, o.oZ, o.theta) : IDENTITY, translation: link.translation };
}

function jointTransform(joint: ChainJoint, value: number): Transform {
  return joint.type === "revolute"
    ? { rotation: aboutAxis(joint.axis, value * RADIANS), translation: [0, 0, 0] }
    : { rotation: IDENTITY, translation: scale(joint.axis, value) };
}

/** Where the end of the chain is, in the chain's base frame, for one value per joint. */
export function forwardKinematics(chain: KinematicChain, values: readonly number[]): Transform {
  return walk(chain, values).end;
}

/** A joint's axis and origin in the base frame, where the chain is now. */
interface PlacedJoint {
  joint: ChainJoint;
  axis: Vec3;
  origin: Vec3;
}

function walk(chain: KinematicChain, values: readonly number[]): { end: Transform; joints: PlacedJoint[] } {
  let frame = ORIGIN;
  let next = 0;
  const joints: PlacedJoint[] = [];
  for (const part of chain.parts) {
    if (part.kind === "link") {
      frame = compose(frame, linkTransform(part));
      continue;
    }
    joints.push({ joint: part, axis: apply(frame.rotation, part.axis), origin: frame.translation });
    frame = compose(frame, jointTransform(part, values[next++] ?? 0));
  }
  return { end: frame, joints };
}

/**
 * The end and the Jacobian there: for each joint, how the end's position (mm) and orientation
 * (radians, as a rotation vector) change per radian (revolute) or millimetre (prismatic).
 */
export function jacobian(chain: KinematicChain, values: readonly number[]): { end: Transform; columns: Array<{ linear: Vec3; angular: Vec3 }> } {
  const { end, joints } = walk(chain, values);
  const columns = joints.map(({ joint, axis, origin }) =>
    joint.type === "revolute" ? { linear: cross(axis, subtract(end.translation, origin)), angular: axis } : { linear: axis, angular: [0, 0, 0] as Vec3 },
  );
  return { end, columns };
}
