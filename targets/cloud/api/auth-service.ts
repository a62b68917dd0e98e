// `proto.rpc.v1.AuthService`: credentials in, an access token out (see auth/authenticate.ts).
import type { ConnectRouter } from "@connectrpc/connect";
import { AuthService } from "../../../proto/gen/proto/rpc/v1/auth_pb.js";
import { authenticate } from "../auth/authenticate.js";
import { peerAddressKey } from "../server/caller.js";
import type { CloudContext } from "../server/cloud-context.js";

export function registerAuthService(router: ConnectRouter, cloud: CloudContext): void {
  router.service(AuthService, {
    async authenticate(request, context) {
      const credentials = request.credentials;
      const accessToken = await authenticate(cloud.store, cloud.issuer, cloud.limiter, {
        entity: request.entity,
        type: credentials?.type ?? "",
        payload: credentials?.payload ?? "",
        peer: context.values.get(peerAddressKey),
      });
      return { accessToken };
    },
  });
}
