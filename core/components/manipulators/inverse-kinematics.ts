// Inverse kinematics: the joint values that put a chain's end at a pose. Damped least squares
// (Levenberg-Marquardt) from the arm's own joint values first, so the answer is the nearby one,
// then from a fixed series of other starts, so a pose that is reachable is found even where the
// first start leads into a dead end. Deterministic: the same request gives the same answer.
import { jacobian, jointsOf, type ChainJoint, type KinematicChain } from "./kinematic-chain.js";
import type { Transform } from "./pose.js";
import { multiply, norm, rotationVector, subtract, transpose } from "./rotation.js";

export interface IkSolution {
  /** One value per joint: degrees (revolute) or millimetres (prismatic). */
  values: number[];
  /** How far the end is from the target there: millimetres and degrees. */
  positionError: number;
  angleError: number;
  /** True when the end is on the target, within a thousandth of a millimetre and of a degree. */
  reached: boolean;
}

const RADIANS = Math.PI / 180;
// Millimetres a radian of orientation error weighs as, so position and orientation count alike.
const ORIENTATION_WEIGHT = 100;
const STARTS = 24;
const ITERATIONS = 150;
const POSITION_TOLERANCE = 1e-3;
const ANGLE_TOLERANCE = 1e-3;

/** Joint values in the solver's units: radians for revolute joints, millimetres for prismatic. */
const toSolver = (joint: ChainJoint, value: number) => (joint.type === "revolute" ? value * RADIANS : value);
const fromSolver = (joint: ChainJoint, value: number) => (joint.type === "revolute" ? value / RADIANS : value);

function errorTo(target: Transform, end: Transform): { vector: number[]; position: number; angle: number } {
  const p = subtract(target.translation, end.translation);
  const w = rotationVector(multiply(target.rotation, transpose(end.rotation)));
  return { vector: [...p, ...w.map((x) => x * ORIENTATION_WEIGHT)], position: norm(p), angle: norm(w) / RADIANS };
}

const squared = (v: readonly number[]) => v.reduce((sum, x) => sum + x * x, 0);

/** Solves A x = b for a small symmetric positive definite A (Gaussian elimination with pivoting). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++) if (Math.abs(m[row]![col]!) > Math.abs(m[pivot]![col]!)) pivot = row;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    const p = m[col]![col]!;
    if (p === 0) continue;
    for (let row = col + 1; row < n; row++) {
      const f = m[row]![col]! / p;
      for (let k = col; k <= n; k++) m[row]![k]! -= f * m[col]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let row = n - 1; row >= 0; row--) {
    let sum = m[row]![n]!;
    for (let k = row + 1; k < n; k++) sum -= m[row]![k]! * x[k]!;
    x[row] = m[row]![row] === 0 ? 0 : sum / m[row]![row]!;
  }
  return x;
}

const clamp = (joint: ChainJoint, value: number) => Math.min(toSolver(joint, joint.max), Math.max(toSolver(joint, joint.min), value));

/** One descent from `start` (solver units); returns where it ended. */
function descend(chain: KinematicChain, joints: ChainJoint[], target: Transform, start: number[]): number[] {
  const degrees = (u: number[]) => u.map((v, i) => fromSolver(joints[i]!, v));
  let u = start.map((v, i) => clamp(joints[i]!, v));
  let { end, columns } = jacobian(chain, degrees(u));
  let error = errorTo(target, end);
  let damping = -1;
  for (let step = 0; step < ITERATIONS; step++) {
    if (error.position < POSITION_TOLERANCE * 1e-4 && error.angle < ANGLE_TOLERANCE * 1e-4) break;
    const rows = columns.map((c) => [...c.linear, ...c.angular.map((x) => x * ORIENTATION_WEIGHT)]);
    const normal = rows.map((ri) => rows.map((rj) => ri.reduce((s, x, k) => s + x * rj[k]!, 0)));
    if (damping < 0) damping = 1e-3 * Math.max(1e-9, ...normal.map((row, i) => row[i]!));
    const gradient = rows.map((ri) => ri.reduce((s, x, k) => s + x * error.vector[k]!, 0));
    const delta = solve(
      normal.map((row, i) => row.map((x, j) => (i === j ? x + damping : x))),
      gradient,
    );
    const tried = u.map((v, i) => clamp(joints[i]!, v + delta[i]!));
    const next = jacobian(chain, degrees(tried));
    const nextError = errorTo(target, next.end);
    if (squared(nextError.vector) < squared(error.vector)) {
      u = tried;
      ({ end, columns } = next);
      error = nextError;
      damping = Math.max(damping / 3, 1e-12);
    } else {
      damping *= 4;
      if (damping > 1e12) break;
    }
  }
  return u;
}

/** A fixed series of starts spread over the joints' ranges (a linear congruential sequence). */
function starts(joints: ChainJoint[], from: readonly number[]): number[][] {
  const out = [from.map((v, i) => toSolver(joints[i]!, v)), joints.map(() => 0)];
  let state = 0x5eed;
  const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  while (out.length < STARTS) {
    out.push(
      joints.map((j) => {
        const low = j.type === "revolute" ? Math.max(j.min, -180) : j.min;
        const high = j.type === "revolute" ? Math.min(j.max, 180) : j.max;
        return toSolver(j, low + (high - low) * next());
      }),
    );
  }
  return out;
}

/** Each revolute value turned by whole turns to lie nearest `reference` within its limits. */
function nearest(joints: ChainJoint[], values: number[], reference: readonly number[]): number[] {
  return values.map((v, i) => {
    const joint = joints[i]!;
    if (joint.type !== "revolute") return v;
    let best = v;
    for (let turns = -2; turns <= 2; turns++) {
      const candidate = v + turns * 360;
      if (candidate < joint.min || candidate > joint.max) continue;
      if (Math.abs(candidate - reference[i]!) < Math.abs(best - reference[i]!)) best = candidate;
    }
    return best;
  });
}

/** The joint values that put the chain's end at `target`, starting from `from`; the closest found when none reach it. */
export function inverseKinematics(chain: KinematicChain, target: Transform, from: readonly number[]): IkSolution {
  const joints = jointsOf(chain);
  let best: IkSolution | undefined;
  for (const start of starts(joints, from)) {
    const values = descend(chain, joints, target, start).map((v, i) => fromSolver(joints[i]!, v));
    const { position, angle } = errorTo(target, jacobian(chain, values).end);
    const solution = { values, positionError: position, angleError: angle, reached: position <= POSITION_TOLERANCE && angle <= ANGLE_TOLERANCE };
    if (best === undefined || position + angle * ORIENTATION_WEIGHT * RADIANS < best.positionError + best.angleError * ORIENTATION_WEIGHT * RADIANS) best = solution;
    if (solution.reached) break;
  }
  return { ...best!, values: nearest(joints, best!.values, from) };
}
