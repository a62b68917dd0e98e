// Every service svc-cloud serves on its port, and its plain HTTP routes. A service whose calls are
// implemented in several files (AppService's machines, history, fragments and logs) is put
// together here from their parts; a call no part implements answers UNIMPLEMENTED. Every call but
// signing in and accepting an invitation needs a token (server/auth-interceptor.ts).
import type { ConnectRouter, ServiceImpl } from "@connectrpc/connect";
import { AgentDeviceService } from "../../../proto/gen/app/agent/v1/agent_pb.js";
import { AppService } from "../../../proto/gen/app/v1/app_pb.js";
import { RobotService } from "../../../proto/gen/app/v1/robot_pb.js";
import { DataSyncService } from "../../../proto/gen/app/datasync/v1/data_sync_pb.js";
import { CloudService } from "../../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { SignalingService } from "../../../proto/gen/proto/rpc/webrtc/v1/signaling_pb.js";
import type { CloudContext } from "../server/cloud-context.js";
import type { HttpRoute } from "../server/http-routes.js";
import { agentDeviceService } from "./agent-device-service.js";
import { appKeys } from "./app-keys.js";
import { appMachines } from "./app-machines.js";
import { appOrganizations } from "./app-organizations.js";
import { appParts } from "./app-parts.js";
import { registerAuthService } from "./auth-service.js";
import { deviceDataSync, deviceFilesPart } from "./device-files.js";
import { deviceRobotPart } from "./device-robot-service.js";
import { deviceRoutes } from "./device-routes.js";
import { deviceWatchPart } from "./device-watch-revisions.js";
import { deviceMachineConfigPart } from "./device-machine-config.js";
import { fragmentsAppPart } from "./fragments-service.js";
import { historyAppPart, historyCloudPart } from "./history-service.js";
import { logsAppPart } from "./logs-app.js";
import { logsDevicePart } from "./logs-device.js";
import { releasesPart } from "./releases-service.js";
import { releaseIndexRoute, releasesRoute } from "./releases-route.js";
import { sessionRoutes } from "./session-routes.js";
import { fragmentUsersPart } from "./fragment-users.js";
import { locationVersionsPart } from "./location-versions.js";
import { logVolumePart } from "./log-volume.js";
import { partStatusPart } from "./part-status.js";
import { partCredentialsPart } from "./part-credentials.js";
import { provisionRoute } from "./provision-route.js";
import { setupRoutes } from "./setup-routes.js";
import { signalingAnswerPart } from "./signaling-answer.js";
import { signalingCallPart } from "./signaling-call.js";
import { webAppRoutes } from "./web-app-routes.js";
import { usersService } from "./users-service.js";

type Part<S extends Parameters<ConnectRouter["service"]>[0]> = Partial<ServiceImpl<S>>;

/** The parts of AppService, each from its own file. */
function appServiceParts(cloud: CloudContext): Part<typeof AppService>[] {
  return [logsAppPart(cloud), appOrganizations(cloud), appMachines(cloud), appParts(cloud), appKeys(cloud), historyAppPart(cloud), fragmentsAppPart(cloud)];
}

/** The parts of RobotService (the device side), each from its own file. */
function robotServiceParts(cloud: CloudContext): Part<typeof RobotService>[] {
  return [deviceRobotPart(cloud), logsDevicePart(cloud)];
}

/** The parts of svc's own CloudService. */
function cloudServiceParts(cloud: CloudContext): Part<typeof CloudService>[] {
  return [deviceWatchPart(cloud), deviceMachineConfigPart(cloud), deviceFilesPart(cloud), usersService(cloud), historyCloudPart(cloud), releasesPart(cloud), partCredentialsPart(cloud), fragmentUsersPart(cloud), logVolumePart(cloud), locationVersionsPart(cloud), partStatusPart(cloud)];
}

export function registerApi(router: ConnectRouter, cloud: CloudContext): void {
  registerAuthService(router, cloud);
  router.service(AppService, Object.assign({}, ...appServiceParts(cloud)));
  router.service(CloudService, Object.assign({}, ...cloudServiceParts(cloud)));
  router.service(RobotService, Object.assign({}, ...robotServiceParts(cloud)));
  router.service(AgentDeviceService, agentDeviceService(cloud));
  router.service(DataSyncService, deviceDataSync(cloud));
  // WebRTC signaling: machines answer (Answer), people and scripts call (the rest).
  router.service(SignalingService, { ...signalingAnswerPart(cloud), ...signalingCallPart(cloud) });
}

export function httpRoutes(): HttpRoute[] {
  // The index before the artifacts under the same folder.
  return [...deviceRoutes, provisionRoute, releaseIndexRoute, releasesRoute, ...sessionRoutes, ...setupRoutes, ...webAppRoutes()];
}
