// What a well-behaved client of a machine with API keys holds while it calls: a token from
// Authenticate and a session from StartSession, kept alive by SendSessionHeartbeat at a quarter of
// the window the server asks for (between the bench's windows on this server nobody else calls,
// and a session without calls or heartbeats for a whole window ends). Every bench call carries both.
import { durationMs } from "@bufbuild/protobuf/wkt";
import { createClient, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { AuthService } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { RobotService } from "../../proto/gen/robot/v1/robot_pb.js";
import type { CallHeaders } from "./grpc-load.js";

export interface ApiKey {
  id: string;
  key: string;
}

export interface SvcSession {
  token: string;
  /** `authorization: Bearer <token>` and `viam-sid: <session>`. */
  headers: CallHeaders;
  /** Throws if a heartbeat failed: the calls since then may not have been under the session. */
  check(): void;
  close(): void;
}

export async function openSvcSession(url: string, apiKey: ApiKey): Promise<SvcSession> {
  const { accessToken: token } = await createClient(AuthService, createGrpcTransport({ baseUrl: url })).authenticate({
    entity: apiKey.id,
    credentials: { type: "api-key", payload: apiKey.key },
  });
  const bearer: Interceptor = (next) => (req) => {
    req.header.set("authorization", `Bearer ${token}`);
    return next(req);
  };
  const robot = createClient(RobotService, createGrpcTransport({ baseUrl: url, interceptors: [bearer] }));
  const started = await robot.startSession({});
  if (!started.heartbeatWindow) throw new Error("StartSession answered no heartbeat window");
  const id = started.id;
  let failure: unknown;
  const timer = setInterval(() => {
    robot.sendSessionHeartbeat({ id }).catch((error: unknown) => (failure ??= error));
  }, durationMs(started.heartbeatWindow) / 4);
  return {
    token,
    headers: { authorization: `Bearer ${token}`, "viam-sid": id },
    check() {
      if (failure) throw new Error(`a session heartbeat failed: ${String(failure)}`);
    },
    close: () => clearInterval(timer),
  };
}
