// The attributes of a wheeled base, as Viam writes them: `left` and `right`, the names of the
// motors on each side (as many on one side as on the other), `width_mm` between the wheels,
// `wheel_circumference_mm`, and `spin_slip_factor`, how much further the wheels must turn in a
// spin than geometry says because they slip (1 when absent, as 0 is in Viam's configuration).
import { readAttributes, type Parsed } from "../attributes.js";

export interface WheeledBaseAttributes {
  left: string[];
  right: string[];
  widthMm: number;
  wheelCircumferenceMm: number;
  spinSlipFactor: number;
}

export const wheeledBaseAttributesSchema = {
  type: "object",
  required: ["left", "right", "width_mm", "wheel_circumference_mm"],
  properties: {
    left: { type: "array", items: { type: "string" }, minItems: 1, description: "the motors on the left side" },
    right: { type: "array", items: { type: "string" }, minItems: 1, description: "the motors on the right side, as many as on the left" },
    width_mm: { type: "number", exclusiveMinimum: 0, description: "the distance between the left and right wheels" },
    wheel_circumference_mm: { type: "number", exclusiveMinimum: 0 },
    spin_slip_factor: { type: "number", minimum: 0, default: 1, description: "multiplies the wheel travel of a spin; 0 means 1" },
  },
};

/** A required list of motor names, each problem at its place (`left[1]: must be ...`). */
function motorNames(attributes: Record<string, unknown>, key: string, problem: (key: string, message: string) => void): string[] {
  const value = attributes[key];
  if (value === undefined || value === null) {
    problem(key, "required");
    return [];
  }
  if (!Array.isArray(value)) {
    problem(key, "must be a list of motor names");
    return [];
  }
  if (value.length === 0) problem(key, "must name at least one motor");
  const names: string[] = [];
  value.forEach((name: unknown, i) => {
    if (typeof name !== "string" || name === "") problem(`${key}[${i}]`, "must be a motor's name");
    else names.push(name);
  });
  return names;
}

export function readWheeledBaseAttributes(attributes: Record<string, unknown> | undefined, path: string): Parsed<WheeledBaseAttributes> {
  const values = attributes ?? {};
  const a = readAttributes(values, path);
  const problem = (key: string, message: string) => a.problem(key, message);
  const left = motorNames(values, "left", problem);
  const right = motorNames(values, "right", problem);
  // Counted as written, so one bad entry is not also reported as a missing motor.
  const count = (v: unknown) => (Array.isArray(v) ? v.length : 0);
  const [leftCount, rightCount] = [count(values.left), count(values.right)];
  if (leftCount > 0 && rightCount > 0 && leftCount !== rightCount) {
    a.problem("right", `must name as many motors as left (${leftCount}), not ${rightCount}`);
  }
  const seen = new Set<string>();
  for (const [side, names] of [["left", left], ["right", right]] as const) {
    names.forEach((name, i) => {
      if (seen.has(name)) a.problem(`${side}[${i}]`, `motor ${JSON.stringify(name)} is named twice; a motor drives one wheel`);
      seen.add(name);
    });
  }
  const value = {
    left,
    right,
    widthMm: a.number("width_mm", { required: true, positive: true }) ?? 0,
    wheelCircumferenceMm: a.number("wheel_circumference_mm", { required: true, positive: true }) ?? 0,
    spinSlipFactor: a.number("spin_slip_factor", { min: 0, default: 0 }) || 1,
  };
  return { value, issues: a.issues };
}
