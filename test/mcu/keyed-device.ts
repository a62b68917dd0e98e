// An svc-mcu holding one API key and a fake sensor, and the calls its hostile tests make over
// gRPC-web: the same for the MCU target in XS behind the shim and for the host build in mcsim.
import { fromBinary } from "@bufbuild/protobuf";
import { GetReadingsRequestSchema, GetReadingsResponseSchema } from "../../proto/gen/common/v1/common_pb.js";
import { AuthenticateRequestSchema, AuthenticateResponseSchema } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { parse, request } from "./grpc-web-body.js";

export const keyId = "key-1";
export const key = "s3cret-key-value";
export const keyedSensor = { name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings: { celsius: 21.5 } } };
export const keyedConfig = { components: [keyedSensor], auth: { handlers: [{ type: "api-key", config: { [keyId]: key, keys: [keyId] } }] } };
export const readingsPath = "/viam.component.sensor.v1.SensorService/GetReadings";
export const grpcWeb = { "content-type": "application/grpc-web+proto" };

export interface Answer {
  status: number;
  body: Uint8Array;
}

export interface KeyedCalls {
  /** POSTs `body` as gRPC-web to `path`. */
  call(path: string, body: Uint8Array, headers?: Record<string, string>): Promise<Answer>;
  /** Authenticates with the key: its access token, and the status of the call that got it. */
  login(): Promise<{ status: number; token: string }>;
  /** GetReadings of the sensor with `authorization`: the status, its message and the reading. */
  read(authorization?: string): Promise<{ status: number; text: string; celsius?: unknown }>;
}

/** The calls to the device at `url()` (read at each call: the device may start after this is made). */
export function keyedCalls(url: () => string): KeyedCalls {
  async function call(path: string, body: Uint8Array, headers: Record<string, string> = {}): Promise<Answer> {
    const response = await fetch(`${url()}${path}`, { method: "POST", headers: { ...grpcWeb, ...headers }, body });
    return { status: response.status, body: new Uint8Array(await response.arrayBuffer()) };
  }
  return {
    call,
    async login() {
      const answer = parse((await call("/proto.rpc.v1.AuthService/Authenticate", request(AuthenticateRequestSchema, { entity: keyId, credentials: { type: "api-key", payload: key } }))).body);
      return { status: answer.status, token: answer.message ? fromBinary(AuthenticateResponseSchema, answer.message).accessToken : "" };
    },
    async read(authorization) {
      const answer = await call(readingsPath, request(GetReadingsRequestSchema, { name: "temp" }), authorization === undefined ? {} : { authorization });
      const { message, status, text } = parse(answer.body);
      return { status, text, celsius: message && fromBinary(GetReadingsResponseSchema, message).readings.celsius?.kind.value };
    },
  };
}
