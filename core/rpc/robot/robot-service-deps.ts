// What the RobotService needs from the machine it describes. The Linux server and the MCU each
// provide it; `createGraphRobotParts` builds the graph-backed part of it.
import type { MachineStatus, ResourceStatus } from "../../graph/index.js";
import type { ResourceName } from "../../resource/index.js";
import type { Operations } from "../operations.js";
import type { Sessions } from "../sessions.js";
import type { FrameSystem } from "../../frame/index.js";

export interface VersionInfo {
  /** "svc-server" on Linux. */
  platform: string;
  /** This build's version, e.g. "0.1.0". */
  version: string;
  /** The version of the Viam API whose wire contract is served, e.g. "v0.1.512". */
  apiVersion: string;
}

/** Where the machine sits in the cloud, for GetCloudMetadata. */
export interface CloudMetadata {
  machinePartId: string;
  primaryOrgId: string;
  locationId: string;
  machineId: string;
}

export interface RobotServiceDeps {
  /** Every resource that has a running instance. */
  resourceNames(): ResourceName[];
  /** Machine state, configuration revision and every resource's status. */
  machineStatus(): MachineStatus;
  /** Clock time (ms) the running configuration was applied; 0 before the first. */
  configUpdatedAt(): number;
  /** Statuses of modules, listed with the resources; none when absent. */
  moduleStatuses?(): ResourceStatus[];
  /** The protobuf service of an API svc does not serve itself, as the part serving it said (a remote's arm). */
  foreignServiceOf?(api: string): string | undefined;
  version: VersionInfo;
  /**
   * Stops every actuator, each with its own extra (by full resource name). Rejects with one
   * SvcError naming every actuator that failed; the others are stopped regardless.
   */
  stopAll(extra: Map<string, Record<string, unknown>>): Promise<void>;
  operations: Operations;
  sessions: Sessions;
  /** Asks the process to shut down; must return at once so the answer still reaches the caller. */
  requestShutdown(): void;
  /** Undefined when the machine has no cloud section in its configuration. */
  cloudMetadata(): CloudMetadata | undefined;
  /** The frame system of the configuration in force. */
  frameSystem(): FrameSystem;
}
