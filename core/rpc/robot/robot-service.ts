// The RobotService handlers: one function per method of viam.robot.v1.RobotService, each taking
// the decoded request and the call's CallInfo and returning the response fields, over whatever
// machine `RobotServiceDeps` describes. Transports register them (connect on Linux, the XS
// dispatcher on the MCU); errors are SvcErrors.
import type { JsonObject } from "@bufbuild/protobuf";
import type { RobotService, StopAllRequest } from "../../../proto/gen/robot/v1/robot_pb.js";
import { formatApi, type ResourceApi } from "../../resource/index.js";
import type { CallInfo } from "../call.js";
import type { ServiceHandlers } from "../components/handler-types.js";
import { Code, SvcError } from "../../errors/index.js";
import { machineStatusResponse, wireCloudMetadata, withRemotePath } from "./machine-status.js";
import { protoServiceOf } from "../api-table.js";
import type { RobotServiceDeps } from "./robot-service-deps.js";
import { durationFromMs, timestampFromMs } from "./wire-time.js";
import { frameSystemConfigResponse, transformPoseResponse } from "./frame-calls.js";

export type RobotServiceHandlers = ServiceHandlers<typeof RobotService>;

export function createRobotService(deps: RobotServiceDeps): RobotServiceHandlers {
  const { operations, sessions } = deps;

  return {
    async getOperations(_request, call) {
      // Like the reference server: every call in flight except this one.
      const operations = deps.operations.list(call).map((op) => ({
        id: op.id,
        method: op.method,
        arguments: op.arguments as JsonObject,
        started: timestampFromMs(op.started),
        sessionId: op.sessionId === "" ? undefined : op.sessionId,
      }));
      return { operations };
    },

    async resourceNames() {
      return { resources: deps.resourceNames().map(withRemotePath) };
    },

    async resourceRPCSubtypes() {
      const seen = new Set<string>();
      const subtypes: { subtype: ResourceApi & { name: string }; protoService: string }[] = [];
      for (const name of deps.resourceNames()) {
        const api = formatApi(name);
        const service = protoServiceOf(api) ?? deps.foreignServiceOf?.(api);
        if (service === undefined || seen.has(api)) continue;
        seen.add(api);
        subtypes.push({ subtype: { namespace: name.namespace, type: name.type, subtype: name.subtype, name: "" }, protoService: service });
      }
      return { resourceRpcSubtypes: subtypes };
    },

    async cancelOperation(request) {
      operations.cancel(request.id);
      return {};
    },

    async blockForOperation(request, call) {
      await untilEndedOrCancelled(operations.wait(request.id), call);
      return {};
    },

    async stopAll(request, call) {
      // As the reference server: every other call in flight is cancelled, then every actuator stopped.
      operations.cancelAll(call, new SvcError(Code.Canceled, "cancelled by StopAll"));
      await deps.stopAll(stopExtras(request));
      return {};
    },

    async startSession(request) {
      const session = sessions.start(request.resume);
      return { id: session.id, heartbeatWindow: durationFromMs(session.heartbeatWindowMs) };
    },

    async sendSessionHeartbeat(request) {
      sessions.heartbeat(request.id);
      return {};
    },

    async getCloudMetadata() {
      const cloud = deps.cloudMetadata();
      if (!cloud) {
        throw new SvcError(Code.FailedPrecondition, "this machine has no cloud credentials (no cloud section in its configuration), so it has no cloud metadata");
      }
      return wireCloudMetadata(cloud);
    },

    async shutdown() {
      deps.requestShutdown();
      return {};
    },

    async getMachineStatus() {
      return machineStatusResponse(deps);
    },

    async getVersion() {
      const { platform, version, apiVersion } = deps.version;
      return { platform, version, apiVersion };
    },

    async frameSystemConfig() {
      return frameSystemConfigResponse(deps.frameSystem());
    },

    async transformPose(request) {
      return transformPoseResponse(deps.frameSystem(), request);
    },
  };
}

function stopExtras(request: StopAllRequest): Map<string, Record<string, unknown>> {
  const extras = new Map<string, Record<string, unknown>>();
  for (const entry of request.extra) {
    if (!entry.name || !entry.params) continue;
    const n = entry.name;
    extras.set(`${n.namespace}:${n.type}:${n.subtype}/${n.name}`, entry.params);
  }
  return extras;
}

function untilEndedOrCancelled(ended: Promise<void>, call: CallInfo): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const forget = call.onCancel(() => reject(new SvcError(Code.Canceled, "BlockForOperation was cancelled")));
    void ended.then(() => {
      forget();
      resolve();
    });
  });
}
