// The motion service models, rdk:builtin:builtin (what a service entry without a model gets, as
// Viam's configurations write `{"name": "builtin", "type": "motion"}`) and rdk:builtin:fake, one
// code. GetPose reads the machine's one frame system, made from the components in force
// (core/frame frameSystemOf, the source RobotService's TransformPose reads too), which the target
// hands in. A component without a frame is not in the frame system, as with viam-server: asking
// where it is is NOT_FOUND, saying it has no frame. Planning is not done here: no plan ever runs.
// The builtin's attributes (Viam's planner logging and threads) are checked and have no effect.
import type { TransformPoseRequest } from "../../../proto/gen/robot/v1/robot_pb.js";
import { BUILTIN_MODEL, FAKE_MODEL, failOnIssues, MOTION_API, readAttributes } from "../../components/index.js";
import type { ConfigIssue } from "../../config/index.js";
import { Code, SvcError } from "../../errors/index.js";
import { frameSystemOf, IDENTITY_POSE, poseToWire, WORLD, type FramedResource } from "../../frame/index.js";
import { formatResourceName, type ModelRegistration } from "../../resource/index.js";
import { transformPoseResponse } from "../../rpc/robot/frame-calls.js";
import type { Motion, PoseInFrame } from "./motion.js";

export interface MotionModelOptions {
  /** The components of the configuration in force; their frames make the frame system. */
  components: () => readonly FramedResource[];
}

function readMotionAttributes(attributes: Record<string, unknown> | undefined, path: string): ConfigIssue[] {
  const a = readAttributes(attributes, path);
  // Paths may be empty (Viam's default: none), so these are checked as strings of any length.
  for (const key of ["log_file_path", "plan_file_path"]) {
    if (a.has(key) && typeof attributes?.[key] !== "string") a.problem(key, "must be a string");
  }
  for (const key of ["plan_directory_include_trace_id", "log_planner_errors"]) a.boolean(key, false);
  for (const key of ["num_threads", "log_slow_plan_threshold_ms"]) a.number(key, { integer: true, min: 0 });
  a.record("input_range_override");
  return a.issues;
}

const attributesSchema = {
  type: "object",
  description: "Viam's planner settings, accepted and without effect: svc-server plans no motion",
  properties: {
    log_file_path: { type: "string" },
    plan_file_path: { type: "string" },
    plan_directory_include_trace_id: { type: "boolean" },
    log_planner_errors: { type: "boolean" },
    num_threads: { type: "integer", minimum: 0 },
    log_slow_plan_threshold_ms: { type: "integer", minimum: 0 },
    input_range_override: { type: "object" },
  },
};

function noPlan(component: string, who: string): SvcError {
  return new SvcError(Code.NotFound, `no plan for component ${JSON.stringify(component)}: ${who} has run none (svc-server plans no motion)`);
}

function motionModel(model: string, options: MotionModelOptions): ModelRegistration<Motion & { close(): Promise<void> }> {
  return {
    api: MOTION_API,
    model,
    attributesSchema,
    validate(config, path) {
      return { issues: readMotionAttributes(config.attributes, path) };
    },
    async build(ctx) {
      failOnIssues(readMotionAttributes(ctx.config.attributes, formatResourceName(ctx.name)));
      const who = formatResourceName(ctx.name);
      return {
        name: ctx.name,
        async getPose(component, destination, supplements) {
          const components = options.components();
          const machine = frameSystemOf(components);
          const supplied = supplements.some((t) => t.referenceFrame === component);
          if (!machine.has(component) && !supplied && components.some((c) => c.name === component && c.frame === undefined)) {
            throw new SvcError(Code.NotFound, `component ${JSON.stringify(component)} has no frame: give its configuration a frame to place it in the frame system`);
          }
          // The component's origin, asked of the frame system as RobotService's TransformPose asks it.
          const request: TransformPoseRequest = {
            $typeName: "viam.robot.v1.TransformPoseRequest",
            source: {
              $typeName: "viam.common.v1.PoseInFrame",
              referenceFrame: component,
              pose: { $typeName: "viam.common.v1.Pose", ...poseToWire(IDENTITY_POSE) },
            },
            destination: destination === "" ? WORLD : destination,
            supplementalTransforms: [...supplements],
          };
          const answer = transformPoseResponse(machine, request).pose as PoseInFrame;
          return { referenceFrame: answer.referenceFrame, pose: answer.pose };
        },
        async listPlanStatuses() {
          return [];
        },
        async getPlan(component) {
          throw noPlan(component, who);
        },
        async stopPlan(component) {
          throw noPlan(component, who);
        },
        async doCommand(command) {
          return command;
        },
        async close() {},
      };
    },
  };
}

/** rdk:builtin:builtin and rdk:builtin:fake, reading the frame system through `options`. */
export function motionModels(options: MotionModelOptions): ModelRegistration[] {
  return [motionModel(BUILTIN_MODEL, options), motionModel(FAKE_MODEL, options)] as ModelRegistration[];
}
