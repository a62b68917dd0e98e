// The motion service API as svc-server serves it: where a component is in the machine's frame
// system (GetPose), and the plans moves make. svc-server plans no motion, so a motion service
// here never has a plan: none is listed, none can be read or stopped.
import type { Commandable, Extra } from "../../components/index.js";
import type { Transform } from "../../../proto/gen/common/v1/common_pb.js";
import type { WirePose } from "../../frame/index.js";

export interface PoseInFrame {
  referenceFrame: string;
  pose: WirePose;
}

export interface Motion extends Commandable {
  /**
   * Where `component` is, seen from `destination` ("" is the world), through the machine's frame
   * system with `supplements` placed for this call only.
   */
  getPose(component: string, destination: string, supplements: readonly Transform[], extra?: Extra): Promise<PoseInFrame>;
  /** The plans run or running, oldest first; `onlyActive`: only those still running. */
  listPlanStatuses(onlyActive: boolean, extra?: Extra): Promise<never[]>;
  /** The latest plan that moved `component`; NOT_FOUND when none has. */
  getPlan(component: string, extra?: Extra): Promise<never>;
  /** Stops the plan moving `component`; NOT_FOUND when none is. */
  stopPlan(component: string, extra?: Extra): Promise<void>;
}
