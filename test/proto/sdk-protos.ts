// The official SDK's own service definitions (protobuf-es v1 runtime objects), reached through
// its public ESM entry: component services through their clients, RobotService and AuthService
// through a real dial, and the cloud's AppService and DataSyncService through the app client's
// calls, each over a transport that records the service of every call.
import * as VIAM from "@viamrobotics/sdk";
import { vi } from "vitest";

export interface V1Enum {
  typeName: string;
  values: readonly { no: number; name: string }[];
}

export interface V1MapValue {
  kind: "scalar" | "enum" | "message";
  T: number | V1Enum | V1MessageType;
}

export interface V1Field {
  no: number;
  name: string;
  jsonName: string;
  localName: string;
  kind: "scalar" | "enum" | "message" | "map";
  T: number | V1Enum | V1MessageType;
  K?: number;
  V?: V1MapValue;
  repeated: boolean;
  opt: boolean;
  oneof?: { name: string; localName: string };
}

export interface V1Message {
  toBinary(): Uint8Array;
  toJson(): unknown;
}

export interface V1MessageType {
  typeName: string;
  fields: { list(): readonly V1Field[] };
  new (data?: object): V1Message;
  fromBinary(bytes: Uint8Array): V1Message;
  fromJson(json: unknown): V1Message;
}

export interface V1Method {
  name: string;
  kind: number;
  I: V1MessageType;
  O: V1MessageType;
}

export interface V1Service {
  typeName: string;
  methods: Record<string, V1Method>;
}

/** v1 MethodKind numbers, by the names protobuf-es v2 uses. */
export const v1MethodKinds = ["unary", "server_streaming", "client_streaming", "bidi_streaming"];

type ComponentClient = new (robot: never, name: string) => unknown;

function serviceOfClient(Client: ComponentClient): V1Service {
  let service: V1Service | undefined;
  const robot = {
    createServiceClient(definition: V1Service) {
      service = definition;
      return {};
    },
  };
  new Client(robot as never, "probe");
  if (!service) throw new Error(`${Client.name} created no service client`);
  return service;
}

/** Dials a RobotClient over a recording transport; returns every service it called. */
async function servicesCalledOnDial(): Promise<V1Service[]> {
  const seen = new Map<string, V1Service>();
  let open = true;
  const transport = {
    async unary(service: V1Service, method: V1Method) {
      if (!open) throw new Error("closed");
      seen.set(service.typeName, service);
      const message = new method.O(method.name === "Authenticate" ? { accessToken: "token" } : {});
      return { stream: false, service, method, header: new Headers(), trailer: new Headers(), message };
    },
    async stream() {
      throw new Error("not used while dialing");
    },
  };
  Reflect.set(globalThis, "VIAM", { GRPC_TRANSPORT_FACTORY: () => transport });
  // The client keeps a heartbeat timer after connecting; faked timers never fire or hold the process.
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
  try {
    const client = new VIAM.RobotClient();
    await client.dial({
      host: "http://localhost:1",
      noReconnect: true,
      disableSessions: true,
      credentials: { type: "api-key", payload: "key", authEntity: "key-id" },
    });
    await client.disconnect();
  } finally {
    open = false;
    vi.clearAllTimers();
    vi.useRealTimers();
    Reflect.deleteProperty(globalThis, "VIAM");
  }
  return [...seen.values()];
}

/** Calls the app client's organisations and data upload over a recording transport; returns their services. */
async function servicesOfAppClient(): Promise<V1Service[]> {
  const seen = new Map<string, V1Service>();
  const transport = {
    async unary(service: V1Service, method: V1Method) {
      seen.set(service.typeName, service);
      return { stream: false, service, method, header: new Headers(), trailer: new Headers(), message: new method.O({}) };
    },
    async stream() {
      throw new Error("not used by the calls made here");
    },
  };
  Reflect.set(globalThis, "VIAM", { GRPC_TRANSPORT_FACTORY: () => transport });
  try {
    // An access token needs no Authenticate call, so nothing but the two calls below is sent.
    const client = await VIAM.createViamClient({
      serviceHost: "http://localhost:1",
      credentials: { type: "access-token", payload: "token" },
    });
    await client.appClient.listOrganizations();
    await client.dataClient.tabularDataCaptureUpload([], "part", "sensor", "sensor1", "Readings", [], []);
  } finally {
    Reflect.deleteProperty(globalThis, "VIAM");
  }
  return [...seen.values()];
}

/** Every service definition the SDK exposes that svc also declares, keyed by full name. */
export async function loadSdkServices(): Promise<Map<string, V1Service>> {
  const services: V1Service[] = [
    VIAM.sensorApi.SensorService as unknown as V1Service,
    VIAM.genericComponentApi.GenericService as unknown as V1Service,
    VIAM.genericServiceApi.GenericService as unknown as V1Service,
    ...[
      VIAM.BoardClient,
      VIAM.MotorClient,
      VIAM.ServoClient,
      VIAM.EncoderClient,
      VIAM.MovementSensorClient,
      VIAM.PowerSensorClient,
      VIAM.CameraClient,
      VIAM.BaseClient,
      VIAM.InputControllerClient,
      VIAM.VisionClient,
      VIAM.DataManagerClient,
      VIAM.ArmClient,
      VIAM.GripperClient,
      VIAM.GantryClient,
      VIAM.NavigationClient,
      VIAM.SlamClient,
      VIAM.MotionClient,
      VIAM.AudioInClient,
      VIAM.AudioOutClient,
    ].map((Client) => serviceOfClient(Client as unknown as ComponentClient)),
    ...(await servicesCalledOnDial()),
    ...(await servicesOfAppClient()),
  ];
  return new Map(services.map((service) => [service.typeName, service]));
}

/** Message classes the SDK exports outside any service we share (used by the module protocol). */
export const sdkMessages = {
  componentConfig: VIAM.appRobotApi.ComponentConfig as unknown as V1MessageType,
  resourceRpcSubtype: VIAM.robotApi.ResourceRPCSubtype as unknown as V1MessageType,
};

/**
 * The device side of the cloud's viam.app.v1 robot API: the SDK exports its messages (by local
 * name) but ships no runtime definition of the service itself.
 */
export function sdkAppRobotMessage(localName: string): V1MessageType | undefined {
  return (VIAM.appRobotApi as unknown as Record<string, V1MessageType | undefined>)[localName];
}
