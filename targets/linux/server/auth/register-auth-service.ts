// Serves `proto.rpc.v1.AuthService` on the API router, answering from an ApiKeyAuth.
import type { ConnectRouter } from "@connectrpc/connect";
import { AuthService } from "../../../../proto/gen/proto/rpc/v1/auth_pb.js";
import { peerKey } from "../transport/index.js";
import type { ApiKeyAuth } from "./api-key-auth.js";

export function registerAuthService(router: ConnectRouter, auth: ApiKeyAuth): void {
  router.service(AuthService, {
    async authenticate(request, context) {
      return { accessToken: await auth.authenticate(request.entity, request.credentials, context.values.get(peerKey)) };
    },
  });
}
