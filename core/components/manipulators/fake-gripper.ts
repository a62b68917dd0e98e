// The fake gripper (rdk:builtin:fake): opens and grabs at once, as Viam's fake gripper does.
// A grab always catches something: Grab answers true, and the gripper holds it until it opens.
// A kinematics file (`model-path`) is refused: the fake has no joints to describe.
import { formatResourceName, type ModelRegistration } from "../../resource/index.js";
import { FAKE_MODEL, GRIPPER_API } from "../api-names.js";
import { failOnIssues, readAttributes, type Parsed } from "../attributes.js";
import type { Gripper } from "./gripper.js";

export function readFakeGripperAttributes(attributes: Record<string, unknown>, path: string): Parsed<Record<string, never>> {
  const a = readAttributes(attributes, path);
  if (a.has("model-path")) a.problem("model-path", "the fake gripper reads no kinematics file; leave it out");
  return { value: {}, issues: a.issues };
}

export const fakeGripperModel: ModelRegistration<Gripper> = {
  api: GRIPPER_API,
  model: FAKE_MODEL,
  attributesSchema: { type: "object", properties: {} },
  validate(config, path) {
    return { issues: readFakeGripperAttributes(config.attributes, path).issues };
  },
  async build(ctx) {
    failOnIssues(readFakeGripperAttributes(ctx.config.attributes, formatResourceName(ctx.name)).issues);
    let holding = false;
    return {
      name: ctx.name,
      async open() {
        holding = false;
      },
      async grab() {
        holding = true;
        return true;
      },
      async isHoldingSomething() {
        return { holding, meta: {} };
      },
      async stop() {},
      async isMoving() {
        return false;
      },
      async doCommand(command) {
        return command;
      },
      async close() {},
    };
  },
};
