// Every service svc-cloud serves on its port, and its plain HTTP routes. A service whose calls are
// implemented in several files (AppService's machines, history, fragments and logs) is put
// together here from their parts; a call no part implements answers UNIMPLEMENTED.
import type { ConnectRouter, ServiceImpl } from "@connectrpc/connect";
import { AppService } from "../../../proto/gen/app/v1/app_pb.js";
import { CloudService } from "../../../proto/gen/svc/cloud/v1/cloud_pb.js";
import type { CloudContext } from "../server/cloud-context.js";
import type { HttpRoute } from "../server/http-routes.js";
import { registerAuthService } from "./auth-service.js";

type Part<S extends Parameters<ConnectRouter["service"]>[0]> = Partial<ServiceImpl<S>>;

/** The parts of AppService, each from its own file. */
function appServiceParts(_cloud: CloudContext): Part<typeof AppService>[] {
  return [];
}

/** The parts of svc's own CloudService. */
function cloudServiceParts(_cloud: CloudContext): Part<typeof CloudService>[] {
  return [];
}

export function registerApi(router: ConnectRouter, cloud: CloudContext): void {
  registerAuthService(router, cloud);
  router.service(AppService, Object.assign({}, ...appServiceParts(cloud)));
  router.service(CloudService, Object.assign({}, ...cloudServiceParts(cloud)));
}

export function httpRoutes(): HttpRoute[] {
  return [];
}
