// The machines the wire-conformance suite calls: real svc-server processes, one without keys and
// one with an API key, each with a fake sensor, a fake motor and a fake board, and a message
// limit small enough to reach. An observer (connect-node, gRPC over HTTP/2, its own connection)
// looks at the server's state beside the client under test: operations, the motor, liveness.
import { createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { SensorService } from "../../proto/gen/component/sensor/v1/sensor_pb.js";
import { MotorService } from "../../proto/gen/component/motor/v1/motor_pb.js";
import { AuthService } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { RobotService } from "../../proto/gen/robot/v1/robot_pb.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";
import type { ApiKey, WireTarget } from "./wire-client.js";

/** The smallest limit the setting takes: messages around it are cheap to make. */
export const MAX_MESSAGE_BYTES = 65_536;
export const API_KEY: ApiKey = { id: "wire-key", key: "wire-secret-value" };
export const READINGS = { celsius: 19.25, room: "workshop" };
export const RESOURCE_NAMES = ["rdk:component:board/pins", "rdk:component:motor/wheel", "rdk:component:sensor/big", "rdk:component:sensor/temp"];

export type MachineName = "open" | "keys";

const components = [
  { name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings: READINGS } },
  // Its readings are larger than the message limit: the answer cannot be sent.
  { name: "big", api: "rdk:component:sensor", model: "fake", attributes: { readings: { blob: "x".repeat(MAX_MESSAGE_BYTES) } } },
  // Slow enough that a long GoFor is still turning when the client gives up on it.
  { name: "wheel", api: "rdk:component:motor", model: "fake", attributes: { max_rpm: 60 } },
  { name: "pins", api: "rdk:component:board", model: "fake" },
];

const configs: Record<MachineName, Record<string, unknown>> = {
  open: { network: { max_message_bytes: MAX_MESSAGE_BYTES }, components },
  keys: {
    network: { max_message_bytes: MAX_MESSAGE_BYTES },
    auth: { handlers: [{ type: "api-key", config: { [API_KEY.id]: API_KEY.key } }] },
    components,
  },
};

export interface Observer {
  readonly robot: Client<typeof RobotService>;
  readonly motor: Client<typeof MotorService>;
  readonly sensor: Client<typeof SensorService>;
  /** The methods of the operations running now, GetOperations itself left out. */
  operations(): Promise<string[]>;
}

export interface WireMachine {
  readonly target: WireTarget;
  readonly process: SvcServerProcess;
  readonly observer: Observer;
  stop(): Promise<void>;
}

export async function startWireMachine(name: MachineName): Promise<WireMachine> {
  const process = await startSvcServer(configs[name]);
  const transport = createGrpcTransport({ baseUrl: process.url });
  let headers: Record<string, string> = {};
  if (name === "keys") {
    const auth = createClient(AuthService, transport);
    const { accessToken } = await auth.authenticate({ entity: API_KEY.id, credentials: { type: "api-key", payload: API_KEY.key } });
    headers = { authorization: `Bearer ${accessToken}` };
  }
  const withToken = createGrpcTransport({ baseUrl: process.url, interceptors: [(next) => (req) => {
    for (const [key, value] of Object.entries(headers)) req.header.set(key, value);
    return next(req);
  }] });
  const robot = createClient(RobotService, withToken);
  const observer: Observer = {
    robot,
    motor: createClient(MotorService, withToken),
    sensor: createClient(SensorService, withToken),
    operations: async () => (await robot.getOperations({})).operations.map((o) => o.method),
  };
  return {
    target: { url: process.url, sdkHost: process.sdkHost },
    process,
    observer,
    stop: async () => void (await process.stop()),
  };
}
