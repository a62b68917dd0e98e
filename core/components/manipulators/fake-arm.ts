// The fake arm (rdk:builtin:fake): joints that go where they are told, an end pose computed from
// them along a documented chain (arm-models.ts), and moves to a pose found by inverse
// kinematics. `arm-model` picks the chain as Viam's fake arm does ("fake" unless set); a
// kinematics file (`model-path`) is refused, since the fake computes only with the chains it
// knows. Moves land at once, as Viam's fake arm's do, unless `speed_degs_per_sec` is set: then
// the joints turn at that speed, together, and the arm reports moving until they arrive.
import { Code, SvcError } from "../../errors/index.js";
import { formatResourceName, type ModelRegistration } from "../../resource/index.js";
import { ARM_API, FAKE_MODEL } from "../api-names.js";
import { failOnIssues, readAttributes, type Parsed } from "../attributes.js";
import type { Arm, ArmMoveOptions } from "./arm.js";
import { armModelNames, chainOfArmModel, DEFAULT_ARM_MODEL } from "./arm-models.js";
import { inverseKinematics } from "./inverse-kinematics.js";
import { createJointMotion } from "./joint-motion.js";
import { forwardKinematics, jointsOf, type ChainJoint, type KinematicChain } from "./kinematic-chain.js";
import { poseOfTransform, transformOfPose, type Pose } from "./pose.js";
import { svaFile } from "./sva.js";

export interface FakeArmAttributes {
  chain: KinematicChain;
  /** Degrees per second; undefined: moves land at once. */
  speed: number | undefined;
}

const DEFAULT_CHAIN = chainOfArmModel(DEFAULT_ARM_MODEL)!;

export function readFakeArmAttributes(attributes: Record<string, unknown>, path: string): Parsed<FakeArmAttributes> {
  const a = readAttributes(attributes, path);
  const armModel = a.string("arm-model") ?? DEFAULT_ARM_MODEL;
  const chain = chainOfArmModel(armModel);
  if (chain === undefined) a.problem("arm-model", `unknown arm model "${armModel}"; one of ${armModelNames.join(", ")}`);
  if (a.has("model-path")) {
    a.problem("model-path", `the fake arm reads no kinematics file; name the arm it stands in for with arm-model (one of ${armModelNames.join(", ")})`);
  }
  const speed = a.number("speed_degs_per_sec", { positive: true });
  return { value: { chain: chain ?? DEFAULT_CHAIN, speed }, issues: a.issues };
}

function unit(joint: ChainJoint): string {
  return joint.type === "revolute" ? "degrees" : "mm";
}

/** Refuses joint values the arm cannot take, naming the field of the request. */
function checkJointValues(joints: readonly ChainJoint[], values: readonly number[], field: string): void {
  if (values.length !== joints.length) {
    throw new SvcError(Code.InvalidArgument, `${field}: the arm has ${joints.length} joint(s), got ${values.length} value(s)`);
  }
  values.forEach((v, i) => {
    const j = joints[i]!;
    if (!Number.isFinite(v)) throw new SvcError(Code.InvalidArgument, `${field}[${i}]: must be a finite number, got ${String(v)}`);
    if (v < j.min || v > j.max) throw new SvcError(Code.InvalidArgument, `${field}[${i}]: ${v} is outside joint ${j.id}'s limits, ${j.min} to ${j.max} ${unit(j)}`);
  });
}

const round = (n: number) => Math.round(n * 1000) / 1000;

function describePose(p: Pose): string {
  return `x ${round(p.x)}, y ${round(p.y)}, z ${round(p.z)}, o_x ${round(p.oX)}, o_y ${round(p.oY)}, o_z ${round(p.oZ)}, theta ${round(p.theta)}`;
}

export const fakeArmModel: ModelRegistration<Arm> = {
  api: ARM_API,
  model: FAKE_MODEL,
  attributesSchema: {
    type: "object",
    properties: {
      "arm-model": { type: "string", enum: [...armModelNames], default: DEFAULT_ARM_MODEL, description: "the arm the fake stands in for: its number of joints" },
      "speed_degs_per_sec": { type: "number", exclusiveMinimum: 0, description: "how fast the joints turn; unset: moves land at once" },
    },
  },
  validate(config, path) {
    return { issues: readFakeArmAttributes(config.attributes, path).issues };
  },
  async build(ctx) {
    const { value: attrs, issues } = readFakeArmAttributes(ctx.config.attributes, formatResourceName(ctx.name));
    failOnIssues(issues);
    const { chain } = attrs;
    const joints = jointsOf(chain);
    const motion = createJointMotion(ctx.clock, joints.map(() => 0));
    const kinematics = svaFile(chain);

    // Every joint turns at most `speed`, and all arrive together.
    const travel = (targets: readonly number[], speed: number | undefined): Promise<boolean> => {
      const now = motion.values();
      const ms = speed === undefined ? 0 : (Math.max(0, ...targets.map((t, i) => Math.abs(t - now[i]!))) / speed) * 1000;
      return motion.moveTo(targets, targets.map(() => ms));
    };

    return {
      name: ctx.name,
      async getEndPosition() {
        return poseOfTransform(forwardKinematics(chain, motion.values()));
      },
      async moveToPosition(pose) {
        for (const [key, value] of Object.entries({ x: pose.x, y: pose.y, z: pose.z, o_x: pose.oX, o_y: pose.oY, o_z: pose.oZ, theta: pose.theta })) {
          if (!Number.isFinite(value)) throw new SvcError(Code.InvalidArgument, `to.${key}: must be a finite number, got ${String(value)}`);
        }
        const solution = inverseKinematics(chain, transformOfPose(pose), motion.values());
        if (!solution.reached) {
          const away = `${round(solution.positionError)} mm and ${round(solution.angleError)} degrees`;
          throw new SvcError(Code.InvalidArgument, `to: the pose (${describePose(pose)}) is out of the arm's reach; the closest it comes is ${away} away`);
        }
        await travel(solution.values, attrs.speed);
      },
      async getJointPositions() {
        return motion.values();
      },
      async moveToJointPositions(values) {
        checkJointValues(joints, values, "positions.values");
        await travel(values, attrs.speed);
      },
      async moveThroughJointPositions(positions, options: ArmMoveOptions) {
        positions.forEach((values, i) => checkJointValues(joints, values, `positions[${i}].values`));
        const speed = options.maxVelDegsPerSec !== undefined && options.maxVelDegsPerSec > 0 ? options.maxVelDegsPerSec : attrs.speed;
        for (const values of positions) {
          // Stopped or sent elsewhere on the way: the rest of the path is dropped.
          if (!(await travel(values, speed))) return;
        }
      },
      async getKinematics() {
        return { format: "sva", data: kinematics.slice() };
      },
      async get3DModels() {
        return {};
      },
      async stop() {
        motion.stop();
      },
      async isMoving() {
        return motion.isMoving();
      },
      async doCommand(command) {
        return command;
      },
      async close() {
        motion.stop();
      },
    };
  },
};
