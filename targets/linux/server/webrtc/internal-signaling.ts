// WebRTC on the API port, wired for svc-server: the signaling service registered beside the
// machine's API (so the machine's own address works as a client's signaling address, with no
// cloud), the answerer whose connections serve the port's own calls, and the bounds on what a
// peer may cost. Off with `-webrtc=false`.
import type { ConnectRouter } from "@connectrpc/connect";
import type { Clock, LoggerLike } from "../../../../core/index.js";
import { SignalingService } from "../../../../proto/gen/proto/rpc/webrtc/v1/signaling_pb.js";
import type { ApiKeyAuth } from "../auth/index.js";
import { createPeerLogLimit, type ConnectionGrant, type PortCalls } from "../transport/index.js";
import { signalingService } from "./signaling-service.js";
import { createWebRtcAnswerer, type WebRtcAnswerer } from "./webrtc-answerer.js";

export interface InternalSignalingOptions {
  readonly auth: ApiKeyAuth;
  readonly clock: Clock;
  readonly logger: LoggerLike;
  /** ICE servers ("stun:host:port"); none are needed on loopback or a LAN. */
  readonly iceServers?: readonly string[];
}

export interface InternalSignaling {
  /** Registers SignalingService on the port. */
  routes(router: ConnectRouter): void;
  /** The port is listening: connections serve its calls, and Calls must name it. */
  attach(port: { readonly calls: PortCalls; namesMachine(host: string): boolean; readonly limits: { readonly maxMessageBytes: number } }): void;
  /** Closes every WebRTC connection (before the port closes). */
  close(): void;
  readonly answerer: WebRtcAnswerer;
}

export function createInternalSignaling(options: InternalSignalingOptions): InternalSignaling {
  const { auth } = options;
  let port: Parameters<InternalSignaling["attach"]>[0] | undefined;
  const iceServers = options.iceServers ?? [];
  const answerer = createWebRtcAnswerer({
    calls: () => port!.calls,
    maxMessageBytes: () => port!.limits.maxMessageBytes,
    iceServers,
    authenticateApiToken: (token) => apiTokenGrant(auth, token),
    clock: options.clock,
    logger: options.logger,
    dropLines: createPeerLogLimit(),
  });
  return {
    answerer,
    routes(router) {
      router.service(
        SignalingService,
        signalingService({
          answerer,
          // Until the port listens nothing names the machine, and no Call arrives before then.
          namesMachine: (host) => port?.namesMachine(host) ?? false,
          grantOf: (header) => (auth.enabled ? auth.grantOf(header) : undefined),
          iceServerUrls: iceServers,
        }),
      );
    },
    attach(listening) {
      port = listening;
    },
    close: () => answerer.close(),
  };
}

// `<key-id>:<key>` sent over the data channel, checked as Authenticate would, held as a grant.
async function apiTokenGrant(auth: ApiKeyAuth, token: string): Promise<ConnectionGrant | undefined> {
  const colon = token.indexOf(":");
  if (colon < 0 || !auth.enabled) return undefined;
  const peer = { address: "", secure: true };
  try {
    const access = await auth.authenticate(token.slice(0, colon), { type: "api-key", payload: token.slice(colon + 1) }, peer);
    return await auth.grantOf(`Bearer ${access}`);
  } catch {
    return undefined;
  }
}
