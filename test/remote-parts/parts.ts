// What the remote-parts tests share: a part (a real svc-server) started on a port of its own so it
// can be killed and started again at the same address, the main part's view through a plain
// gRPC client (the wire's remote_path, which the SDK of this version does not read), and the
// machine status keyed the way this part names resources (`rdk:component:sensor/r1:s1`).
import { createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { ResourceStatus_State, RobotService } from "../../proto/gen/robot/v1/robot_pb.js";
import { freePort } from "../helpers/free-port.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

export interface Part {
  readonly port: number;
  readonly config: Record<string, unknown>;
  process: SvcServerProcess;
  /** SIGKILL, as a crash or a pulled plug would end it; waits for the exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port with the same configuration. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startPart(config: Record<string, unknown>, port?: number): Promise<Part> {
  const at = port ?? (await freePort());
  const full = { ...config, network: { ...(config.network as object | undefined), bind_address: `localhost:${at}` } };
  const part: Part = {
    port: at,
    config: full,
    process: await startSvcServer(full),
    async kill() {
      await part.process.stop("SIGKILL");
    },
    async restart() {
      part.process = await startSvcServer(full);
    },
    async stop() {
      await part.process.stop();
    },
  };
  return part;
}

/** A remote entry for `part`, dialled in plaintext, listed every second and redialled soon. */
export function remoteFor(name: string, part: Part, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, address: `localhost:${part.port}`, insecure: true, connection_check_interval: "1s", reconnect_interval: "100ms", ...extra };
}

const clients = new Map<string, Client<typeof RobotService>>();

/** One client (one HTTP/2 connection) per part, however often the tests ask. */
export function robotClient(url: string): Client<typeof RobotService> {
  let client = clients.get(url);
  if (client === undefined) clients.set(url, (client = createClient(RobotService, createGrpcTransport({ baseUrl: url }))));
  return client;
}

interface WireName {
  namespace: string;
  type: string;
  subtype: string;
  name: string;
  remotePath: string[];
}

/** `rdk:component:sensor/r1:s1`: the name this part gives a resource, from the wire's name and remote_path. */
export function nameHere(n: WireName): string {
  return `${n.namespace}:${n.type}:${n.subtype}/${[...n.remotePath, n.name].join(":")}`;
}

export interface Status {
  state: string;
  error: string;
}

/** GetMachineStatus, keyed by the names this part gives its resources. */
export async function statuses(url: string): Promise<Map<string, Status>> {
  const answer = await robotClient(url).getMachineStatus({});
  return new Map(answer.resources.map((r) => [nameHere(r.name!), { state: ResourceStatus_State[r.state], error: r.error }]));
}

/** The status of one resource when it is `state` (and its error matches), for `eventually`. */
export async function when(url: string, name: string, state: string, error?: RegExp): Promise<Status | undefined> {
  const status = (await statuses(url)).get(name);
  return status?.state === state && (error === undefined || error.test(status.error)) ? status : undefined;
}
