// The fake gantry (rdk:builtin:fake): one axis, as Viam's fake gantry has, `length_mm` long (100
// unless set), its carriage starting half way. MoveToPosition takes one position per axis,
// within 0 and the length; each axis travels at the speed the request gives it (mm/s), and a
// speed of 0 or none lands at once, as every move of Viam's fake does. Home answers true and
// leaves the carriage where it is, as Viam's does. A kinematics file (`model_path`) is refused:
// the fake's chain is one prismatic joint along x, 0 to the length.
import { Code, SvcError } from "../../errors/index.js";
import { formatResourceName, type ModelRegistration } from "../../resource/index.js";
import { FAKE_MODEL, GANTRY_API } from "../api-names.js";
import { failOnIssues, readAttributes, type Parsed } from "../attributes.js";
import type { Gantry } from "./gantry.js";
import { createJointMotion } from "./joint-motion.js";
import type { KinematicChain } from "./kinematic-chain.js";
import { svaFile } from "./sva.js";

export const DEFAULT_GANTRY_LENGTH_MM = 100;

export function readFakeGantryAttributes(attributes: Record<string, unknown>, path: string): Parsed<{ lengthMm: number }> {
  const a = readAttributes(attributes, path);
  const lengthMm = a.number("length_mm", { positive: true, default: DEFAULT_GANTRY_LENGTH_MM })!;
  if (a.has("model_path")) a.problem("model_path", "the fake gantry reads no kinematics file; give its length with length_mm");
  return { value: { lengthMm }, issues: a.issues };
}

function gantryChain(lengthMm: number): KinematicChain {
  return {
    name: "fake_gantry",
    parts: [
      { kind: "joint", id: "gantry_joint", type: "prismatic", axis: [1, 0, 0], min: 0, max: lengthMm },
    ],
  };
}

function checkMove(lengths: readonly number[], positions: readonly number[], speeds: readonly number[]): void {
  const axes = `the gantry has ${lengths.length} axis(es)`;
  if (positions.length !== lengths.length) throw new SvcError(Code.InvalidArgument, `positions_mm: ${axes}, got ${positions.length} position(s)`);
  if (speeds.length !== 0 && speeds.length !== lengths.length) {
    throw new SvcError(Code.InvalidArgument, `speeds_mm_per_sec: ${axes}, got ${speeds.length} speed(s)`);
  }
  positions.forEach((p, i) => {
    if (!Number.isFinite(p) || p < 0 || p > lengths[i]!) {
      throw new SvcError(Code.InvalidArgument, `positions_mm[${i}]: ${String(p)} is outside the axis, 0 to ${lengths[i]} mm`);
    }
  });
  speeds.forEach((s, i) => {
    if (!Number.isFinite(s) || s < 0) throw new SvcError(Code.InvalidArgument, `speeds_mm_per_sec[${i}]: must be 0 or more, got ${String(s)}`);
  });
}

export const fakeGantryModel: ModelRegistration<Gantry> = {
  api: GANTRY_API,
  model: FAKE_MODEL,
  attributesSchema: {
    type: "object",
    properties: {
      length_mm: { type: "number", exclusiveMinimum: 0, default: DEFAULT_GANTRY_LENGTH_MM, description: "the axis's length; the carriage starts half way" },
    },
  },
  validate(config, path) {
    return { issues: readFakeGantryAttributes(config.attributes, path).issues };
  },
  async build(ctx) {
    const { value, issues } = readFakeGantryAttributes(ctx.config.attributes, formatResourceName(ctx.name));
    failOnIssues(issues);
    const lengths = [value.lengthMm];
    const motion = createJointMotion(ctx.clock, lengths.map((l) => l / 2));
    const kinematics = svaFile(gantryChain(value.lengthMm));
    return {
      name: ctx.name,
      async getPosition() {
        return motion.values();
      },
      async moveToPosition(positions, speeds) {
        checkMove(lengths, positions, speeds);
        const now = motion.values();
        // Each axis at the speed given for it; none, or 0, lands at once.
        await motion.moveTo(positions, positions.map((p, i) => (speeds[i] ? (Math.abs(p - now[i]!) / speeds[i]!) * 1000 : 0)));
      },
      async home() {
        return true;
      },
      async getLengths() {
        return [...lengths];
      },
      async getKinematics() {
        return { format: "sva", data: kinematics.slice() };
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
