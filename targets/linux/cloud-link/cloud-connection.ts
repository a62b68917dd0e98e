// svc-server's connection to svc-cloud: one HTTP/2 connection (pinged, so a dead network is
// noticed), signed in with the part's API key. The access token is fetched when first needed and
// kept; a call the cloud answers UNAUTHENTICATED (an expired or revoked token) signs in again and
// is tried once more. Every call has a deadline, streams excepted, and every answer a size bound.
import { ConnectError, createClient, type Client, type Interceptor, type Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { Code } from "../../../core/index.js";
import { AgentDeviceService } from "../../../proto/gen/app/agent/v1/agent_pb.js";
import { RobotService } from "../../../proto/gen/app/v1/robot_pb.js";
import { AuthService } from "../../../proto/gen/proto/rpc/v1/auth_pb.js";
import { CloudService } from "../../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { DataSyncService } from "../../../proto/gen/app/datasync/v1/data_sync_pb.js";
import { SignalingService } from "../../../proto/gen/proto/rpc/webrtc/v1/signaling_pb.js";
import { MAX_CONFIG_CHARACTERS } from "../../../core/index.js";

/** A unary call's deadline: Viam's read timeout. */
export const CLOUD_CALL_TIMEOUT_MS = 15_000;
/** The largest answer taken: a configuration as large as a config file may be (3 bytes a character), JSON-quoted. */
export const CLOUD_READ_MAX_BYTES = 6 * MAX_CONFIG_CHARACTERS;
/** How often an idle connection is pinged, and how long a ping may go unanswered. */
const PING_INTERVAL_MS = 10_000;
const PING_TIMEOUT_MS = 5_000;

export interface CloudConnectionOptions {
  url: string;
  apiKey: { id: string; key: string };
  callTimeoutMs?: number;
}

export interface CloudConnection {
  readonly url: string;
  /** viam.app.v1.RobotService: Config, Log, NeedsRestart, Certificate. */
  readonly robot: Client<typeof RobotService>;
  /** svc.cloud.v1.CloudService: MachineConfig, WatchRevisions. */
  readonly cloud: Client<typeof CloudService>;
  /** viam.app.agent.v1.AgentDeviceService: DeviceAgentConfig. */
  readonly agent: Client<typeof AgentDeviceService>;
  /** proto.rpc.webrtc.v1.SignalingService: Answer, for offers callers make through svc-cloud. */
  readonly signaling: Client<typeof SignalingService>;
  /** viam.app.datasync.v1.DataSyncService: FileUpload. */
  readonly dataSync: Client<typeof DataSyncService>;
}

export function createCloudConnection(options: CloudConnectionOptions): CloudConnection {
  const timeoutMs = options.callTimeoutMs ?? CLOUD_CALL_TIMEOUT_MS;
  const plain = transport(options.url, [], timeoutMs);
  const auth = createClient(AuthService, plain);
  let token: Promise<string> | undefined;

  const signIn = (): Promise<string> => {
    token ??= auth
      .authenticate({ entity: options.apiKey.id, credentials: { type: "api-key", payload: options.apiKey.key } })
      .then((answer) => answer.accessToken)
      .catch((thrown: unknown) => {
        token = undefined;
        throw thrown;
      });
    return token;
  };

  const bearer: Interceptor = (next) => async (request) => {
    const used = signIn();
    request.header.set("authorization", `Bearer ${await used}`);
    try {
      return await next(request);
    } catch (thrown) {
      if (request.stream || ConnectError.from(thrown).code !== Code.Unauthenticated) throw thrown;
      // The token ran out or was revoked: one new sign-in, one more try.
      if (token === used) token = undefined;
      request.header.set("authorization", `Bearer ${await signIn()}`);
      return next(request);
    }
  };
  const signed = transport(options.url, [bearer], timeoutMs);
  return {
    url: options.url,
    robot: createClient(RobotService, signed),
    cloud: createClient(CloudService, signed),
    agent: createClient(AgentDeviceService, signed),
    signaling: createClient(SignalingService, signed),
    dataSync: createClient(DataSyncService, signed),
  };
}

function transport(url: string, interceptors: Interceptor[], timeoutMs: number): Transport {
  return createGrpcTransport({
    baseUrl: url,
    interceptors,
    defaultTimeoutMs: timeoutMs,
    readMaxBytes: CLOUD_READ_MAX_BYTES,
    pingIntervalMs: PING_INTERVAL_MS,
    pingTimeoutMs: PING_TIMEOUT_MS,
  });
}
